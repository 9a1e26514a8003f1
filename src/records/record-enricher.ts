import { Injectable } from '@nestjs/common';
import { CollectionRegistry } from './collections/collection-registry';
import type { RecordData, ResolvedCollection, ResolvedField } from './collections/collection.types';
import { FieldsSelection, FilterError, parseFields, pickFields } from './filter';
import { decodeRow, isMultiple } from './record-codec';
import { RecordJson, toRecordJson } from './record-view';
import { RecordsRepository, SqlFragment, quoteIdentifier } from './records.repository';
import { RequestInfo, RuleEngine, toBadRequest } from './rules';

/** One level of an `expand` tree: `user.team,tags` → { user: { team: {} }, tags: {} }. */
export type ExpandTree = Map<string, ExpandTree>;

/** PocketBase's maxNestedRels: how deep `a.b.c...` may go. */
export const MAX_EXPAND_DEPTH = 6;
const MAX_EXPAND_PATHS = 50;
const MAX_BACK_RELATION_RECORDS = 1000;

export function parseExpand(param: string | undefined): ExpandTree {
  const tree: ExpandTree = new Map();
  if (!param) {
    return tree;
  }
  const paths = param
    .split(',')
    .map((path) => path.trim())
    .filter((path) => path !== '')
    .slice(0, MAX_EXPAND_PATHS);
  for (const path of paths) {
    let level = tree;
    for (const segment of path.split('.').slice(0, MAX_EXPAND_DEPTH)) {
      if (!/^\w+$/.test(segment)) {
        break;
      }
      let next = level.get(segment);
      if (!next) {
        next = new Map();
        level.set(segment, next);
      }
      level = next;
    }
  }
  return tree;
}

/** Parses the `fields` parameter (a bad one is a 400). */
export function parseFieldsParam(param: string | undefined): FieldsSelection | undefined {
  if (!param?.trim()) {
    return undefined;
  }
  try {
    return parseFields(param);
  } catch (error) {
    throw error instanceof FilterError ? toBadRequest(error) : error;
  }
}

export interface EnrichOptions {
  readonly expand?: string;
  readonly fields?: string;
}

/**
 * Turns stored records into response JSON: hides what the viewer may not see (hidden fields always, e-mails of
 * auth records unless visible, owned, managed or the viewer is a superuser), expands relations and
 * back-relations through the related collections' view rules, then applies `fields`.
 */
@Injectable()
export class RecordEnricher {
  constructor(
    private readonly registry: CollectionRegistry,
    private readonly records: RecordsRepository,
    private readonly rules: RuleEngine,
  ) {}

  /** Response JSON for records of one collection. */
  async enrich(
    collection: ResolvedCollection,
    items: readonly RecordData[],
    info: RequestInfo,
    options: EnrichOptions = {},
  ): Promise<RecordJson[]> {
    const selection = parseFieldsParam(options.fields);
    const json = await this.present(collection, items, info);
    const tree = parseExpand(options.expand);
    if (tree.size > 0) {
      await this.expandLevel(collection, items, json, tree, info, 1);
    }
    return selection ? json.map((item) => pickFields(item, selection) as RecordJson) : json;
  }

  /** JSON of records without expansion (e-mail visibility resolved). */
  async present(
    collection: ResolvedCollection,
    items: readonly RecordData[],
    info: RequestInfo,
  ): Promise<RecordJson[]> {
    const visible = await this.emailVisibleIds(collection, items, info);
    return items.map((data) => toRecordJson(collection, data, { showEmail: visible.has(String(data.id)) }));
  }

  /** Ids of auth records whose e-mail the viewer may see regardless of emailVisibility. */
  private async emailVisibleIds(
    collection: ResolvedCollection,
    items: readonly RecordData[],
    info: RequestInfo,
  ): Promise<Set<string>> {
    const ids = new Set<string>();
    if (collection.type !== 'auth' || items.length === 0 || !info.auth) {
      return ids;
    }
    if (info.auth.isSuperuser) {
      return new Set(items.map((data) => String(data.id)));
    }
    if (info.auth.collection === collection.name) {
      ids.add(info.auth.record.id);
    }
    const rule = collection.rules.manage;
    if (rule) {
      const access = this.rules.access(collection, rule, info);
      if (access.kind === 'all') {
        return new Set(items.map((data) => String(data.id)));
      }
      if (access.kind === 'where') {
        const rows = await this.records.findByIds(
          collection,
          items.map((data) => String(data.id)),
          [access.condition],
        );
        for (const row of rows) {
          ids.add(String(row.id));
        }
      }
    }
    return ids;
  }

  private async expandLevel(
    collection: ResolvedCollection,
    items: readonly RecordData[],
    json: RecordJson[],
    tree: ExpandTree,
    info: RequestInfo,
    depth: number,
  ): Promise<void> {
    for (const [key, children] of tree) {
      const field = collection.fieldsByName.get(key);
      if (field?.type === 'relation' && field.relation && !field.hidden) {
        await this.expandRelation(field, items, json, key, children, info, depth);
        continue;
      }
      const back = /^(\w+)_via_(\w+)$/.exec(key);
      if (back) {
        await this.expandBackRelation(collection, back[1], back[2], items, json, key, children, info, depth);
      }
      // Anything else is ignored, as PocketBase does with an unknown expand path.
    }
  }

  private async fetchVisible(
    target: ResolvedCollection,
    info: RequestInfo,
    fetch: (where: SqlFragment[]) => Promise<Record<string, unknown>[]>,
  ): Promise<RecordData[]> {
    const access = this.rules.access(target, target.rules.view, info);
    if (access.kind === 'none') {
      return [];
    }
    const rows = await fetch(access.kind === 'where' ? [access.condition] : []);
    return rows.map((row) => decodeRow(target, row));
  }

  private async expandRelation(
    field: ResolvedField,
    items: readonly RecordData[],
    json: RecordJson[],
    key: string,
    children: ExpandTree,
    info: RequestInfo,
    depth: number,
  ): Promise<void> {
    const target = this.registry.get(field.relation!.collection);
    const idsOf = (data: RecordData): string[] =>
      (isMultiple(field) ? (data[field.name] as string[]) : [data[field.name] as string]).filter(
        (id) => typeof id === 'string' && id !== '',
      );
    const ids = [...new Set(items.flatMap(idsOf))];
    if (ids.length === 0) {
      return;
    }
    const related = await this.fetchVisible(target, info, (where) =>
      this.records.findByIds(target, ids, where),
    );
    if (related.length === 0) {
      return;
    }
    const relatedJson = await this.present(target, related, info);
    if (children.size > 0 && depth < MAX_EXPAND_DEPTH) {
      await this.expandLevel(target, related, relatedJson, children, info, depth + 1);
    }
    const byId = new Map(relatedJson.map((item) => [item.id, item]));
    items.forEach((data, index) => {
      const found = idsOf(data)
        .map((id) => byId.get(id))
        .filter((item): item is RecordJson => item !== undefined);
      if (found.length === 0) {
        return;
      }
      const expand = (json[index].expand ?? {}) as Record<string, unknown>;
      json[index].expand = expand;
      expand[key] = isMultiple(field) ? found : found[0];
    });
  }

  private async expandBackRelation(
    collection: ResolvedCollection,
    targetName: string,
    fieldName: string,
    items: readonly RecordData[],
    json: RecordJson[],
    key: string,
    children: ExpandTree,
    info: RequestInfo,
    depth: number,
  ): Promise<void> {
    const target = this.registry.find(targetName);
    const field = target?.fieldsByName.get(fieldName);
    if (!target || !field || field.relation?.collection !== collection.name || field.hidden) {
      return;
    }
    const ids = items.map((data) => String(data.id));
    const column = `${quoteIdentifier(target.table)}.${quoteIdentifier(field.column)}`;
    const placeholders = ids.map(() => '?').join(', ');
    const referencing: SqlFragment = isMultiple(field)
      ? {
          sql: `EXISTS (SELECT 1 FROM json_each(CASE WHEN json_valid(${column}) THEN ${column} ELSE '[]' END) AS je WHERE je.value IN (${placeholders}))`,
          params: ids,
        }
      : { sql: `${column} IN (${placeholders})`, params: ids };
    const related = await this.fetchVisible(target, info, (where) =>
      this.records.list(target, {
        where: [referencing, ...where],
        orderBy: [],
        limit: MAX_BACK_RELATION_RECORDS,
        offset: 0,
      }),
    );
    if (related.length === 0) {
      return;
    }
    const relatedJson = await this.present(target, related, info);
    if (children.size > 0 && depth < MAX_EXPAND_DEPTH) {
      await this.expandLevel(target, related, relatedJson, children, info, depth + 1);
    }
    items.forEach((data, index) => {
      const id = String(data.id);
      const found = relatedJson.filter((_item, i) => {
        const value = related[i][field.name];
        return Array.isArray(value) ? value.includes(id) : value === id;
      });
      if (found.length === 0) {
        return;
      }
      const expand = (json[index].expand ?? {}) as Record<string, unknown>;
      json[index].expand = expand;
      expand[key] = found;
    });
  }
}
