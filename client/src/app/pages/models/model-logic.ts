import { CatalogEntry, InferenceServer, InstalledModel } from '../../core/api-types';

/** What the user wants a model for (the assistant's first question), matching CatalogEntry.types. */
export type Purpose = 'preset' | 'cloning' | 'design' | 'transcription' | 'api';
export const PURPOSES: readonly Purpose[] = ['preset', 'cloning', 'design', 'transcription', 'api'];

/** Name of the family a model is grouped under on the Models page. */
export function familyOf(entry: CatalogEntry): string {
  return entry.family || entry.backendDisplayName || entry.backend;
}

export interface ModelFamily {
  name: string;
  description: string;
  models: InstalledModel[];
}

/** Installed models, one group per family (sorted by name), variants sorted by name. */
export function groupByFamily(models: readonly InstalledModel[]): ModelFamily[] {
  const families = new Map<string, ModelFamily>();
  for (const model of models) {
    const name = familyOf(model.entry);
    let family = families.get(name);
    if (!family) {
      family = { name, description: model.entry.backendDescription, models: [] };
      families.set(name, family);
    }
    family.models.push(model);
  }
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  for (const family of families.values()) family.models.sort((a, b) => byName(a.entry, b.entry));
  return [...families.values()].sort(byName);
}

/** Online, enabled workers. */
export function onlineWorkers(servers: readonly InferenceServer[]): InferenceServer[] {
  return servers.filter((server) => server.enabled && server.status === 'online');
}

/** Whether a worker's device can run an entry (GPU entries need a CUDA worker). */
export function canRunOn(entry: CatalogEntry, server: InferenceServer): boolean {
  if (entry.hardware === 'gpu') return server.device === 'cuda';
  return true;
}

/** The online workers that can run an entry. */
export function runnersOf(
  entry: CatalogEntry,
  servers: readonly InferenceServer[],
): InferenceServer[] {
  return onlineWorkers(servers).filter((server) => canRunOn(entry, server));
}

/**
 * A backend whose voices are one small catalog entry each (Piper): several entries with at most one preset voice
 * each. The assistant shows them as one filterable list.
 */
export function isVoiceCollection(entries: readonly CatalogEntry[]): boolean {
  return entries.length >= 2 && entries.every((entry) => (entry.presetVoices?.length ?? 0) <= 1);
}

/** Quality of a voice-collection entry: the variant's last dash-separated part ("medium", "x_low"). */
export function qualityOf(entry: CatalogEntry): string {
  const parts = entry.variant.split('-');
  return parts.length > 1 ? parts[parts.length - 1] : '';
}

/** Language tag of a voice-collection entry: the variant's first part when it looks like one ("en_US"). */
export function localeOf(entry: CatalogEntry): string {
  const first = entry.variant.split('-')[0];
  if (/^[a-z]{2,3}(_[A-Z]{2})?$/.test(first)) return first.replace('_', '-');
  return entry.presetVoices?.[0]?.language ?? entry.languages[0] ?? '';
}

/** Speaker of a voice-collection entry: its preset voice's name, else the variant's middle part. */
export function speakerOf(entry: CatalogEntry): string {
  const preset = entry.presetVoices?.[0]?.name;
  if (preset) return preset;
  const parts = entry.variant.split('-');
  return parts.length >= 3 ? parts.slice(1, -1).join('-') : entry.name;
}

export interface RankedEntry {
  kind: 'entry';
  entry: CatalogEntry;
  recommended: boolean;
  runners: InferenceServer[];
}

export interface RankedCollection {
  kind: 'collection';
  backend: string;
  name: string;
  description: string;
  recommended: boolean;
  /** Whether at least one entry can run on an online worker. */
  runnable: boolean;
  entries: RankedEntry[];
}

export type RankedItem = RankedEntry | RankedCollection;

function rankKey(item: {
  recommended: boolean;
  runnable: boolean;
  name: string;
}): [number, number, string] {
  return [item.recommended ? 0 : 1, item.runnable ? 0 : 1, item.name];
}

function compareRank(
  a: { recommended: boolean; runnable: boolean; name: string },
  b: { recommended: boolean; runnable: boolean; name: string },
): number {
  const [ra, ua, na] = rankKey(a);
  const [rb, ub, nb] = rankKey(b);
  return ra - rb || ua - ub || na.localeCompare(nb);
}

/**
 * Catalog entries for a purpose, ranked: recommended first, then those an online worker can run, then by name.
 * Legacy entries are never offered. Voice-collection backends (Piper) become one item holding their entries.
 */
export function rankForPurpose(
  catalog: readonly CatalogEntry[],
  purpose: Purpose,
  servers: readonly InferenceServer[],
): RankedItem[] {
  const candidates = catalog.filter((entry) => !entry.legacy && entry.types.includes(purpose));
  const byBackend = new Map<string, CatalogEntry[]>();
  for (const entry of candidates) {
    const list = byBackend.get(entry.backend) ?? [];
    list.push(entry);
    byBackend.set(entry.backend, list);
  }
  const rank = (entry: CatalogEntry): RankedEntry => ({
    kind: 'entry',
    entry,
    recommended: entry.recommended === true,
    runners: runnersOf(entry, servers),
  });
  const items: { item: RankedItem; recommended: boolean; runnable: boolean; name: string }[] = [];
  for (const [backend, entries] of byBackend) {
    if (isVoiceCollection(entries)) {
      const ranked = entries
        .map(rank)
        .sort((a, b) =>
          compareRank(
            { recommended: a.recommended, runnable: a.runners.length > 0, name: a.entry.name },
            { recommended: b.recommended, runnable: b.runners.length > 0, name: b.entry.name },
          ),
        );
      const first = entries[0];
      const collection: RankedCollection = {
        kind: 'collection',
        backend,
        name: first.family || first.backendDisplayName || backend,
        description: first.backendDescription,
        recommended: ranked.some((r) => r.recommended),
        runnable: ranked.some((r) => r.runners.length > 0),
        entries: ranked,
      };
      items.push({
        item: collection,
        recommended: collection.recommended,
        runnable: collection.runnable,
        name: collection.name,
      });
    } else {
      for (const entry of entries) {
        const ranked = rank(entry);
        items.push({
          item: ranked,
          recommended: ranked.recommended,
          runnable: ranked.runners.length > 0,
          name: entry.name,
        });
      }
    }
  }
  return items.sort(compareRank).map((i) => i.item);
}
