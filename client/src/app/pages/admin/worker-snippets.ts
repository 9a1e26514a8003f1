/** Ready-to-paste commands that start a Chorus worker which registers itself with this service. */
export interface WorkerSnippetInput {
  serviceUrl: string;
  registrationToken: string;
  authToken: string;
  name: string;
  /** How the main service reaches the worker; empty → a placeholder to replace. */
  publicUrl: string;
  gpu: boolean;
}

export const WORKER_IMAGE = 'chorus-worker:latest';
const PUBLIC_URL_PLACEHOLDER = 'http://WORKER_HOST:8000';

/** A name usable as a container / Kubernetes resource name. */
export function resourceName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50);
  return slug || 'chorus-worker';
}

function env(input: WorkerSnippetInput, publicUrl: string): [string, string][] {
  return [
    ['SERVICE_URL', input.serviceUrl],
    ['SERVICE_REGISTRATION_TOKEN', input.registrationToken],
    ['INFERENCE_AUTH_TOKEN', input.authToken],
    ['INFERENCE_PUBLIC_URL', publicUrl],
    ['INFERENCE_NAME', input.name],
    ['INFERENCE_DEVICE', input.gpu ? 'cuda' : 'cpu'],
  ];
}

function quote(value: string): string {
  return /^[A-Za-z0-9_./:@-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

export function dockerRunSnippet(input: WorkerSnippetInput): string {
  const name = resourceName(input.name);
  const lines = [
    `docker run -d --name ${name} --restart unless-stopped`,
    ...(input.gpu ? ['--gpus all'] : []),
    '-p 8000:8000',
    `-v ${name}-data:/app/data`,
    ...env(input, input.publicUrl || PUBLIC_URL_PLACEHOLDER).map(([k, v]) => `-e ${k}=${quote(v)}`),
    WORKER_IMAGE,
  ];
  return lines.join(' \\\n  ');
}

export function composeSnippet(input: WorkerSnippetInput): string {
  const name = resourceName(input.name);
  const yaml = (v: string) => JSON.stringify(v);
  const out = [
    'services:',
    `  ${name}:`,
    `    image: ${WORKER_IMAGE}`,
    '    restart: unless-stopped',
    "    ports: ['8000:8000']",
    '    environment:',
    ...env(input, input.publicUrl || PUBLIC_URL_PLACEHOLDER).map(
      ([k, v]) => `      ${k}: ${yaml(v)}`,
    ),
    `    volumes: ['${name}-data:/app/data']`,
  ];
  if (input.gpu) {
    out.push(
      '    deploy:',
      '      resources:',
      '        reservations:',
      '          devices: [{ driver: nvidia, count: all, capabilities: [gpu] }]',
    );
  }
  out.push('volumes:', `  ${name}-data: {}`);
  return out.join('\n');
}

export function kubernetesSnippet(input: WorkerSnippetInput): string {
  const name = resourceName(input.name);
  const yaml = (v: string) => JSON.stringify(v);
  const publicUrl = input.publicUrl || `http://${name}:8000`;
  const out = [
    'apiVersion: v1',
    'kind: Secret',
    `metadata: { name: ${name}-secrets }`,
    'stringData:',
    `  registration-token: ${yaml(input.registrationToken)}`,
    `  auth-token: ${yaml(input.authToken)}`,
    '---',
    'apiVersion: apps/v1',
    'kind: Deployment',
    `metadata: { name: ${name} }`,
    'spec:',
    '  replicas: 1',
    `  selector: { matchLabels: { app: ${name} } }`,
    '  template:',
    `    metadata: { labels: { app: ${name} } }`,
    '    spec:',
    '      containers:',
    '        - name: worker',
    `          image: ${WORKER_IMAGE}`,
    '          ports: [{ name: http, containerPort: 8000 }]',
    '          env:',
    `            - { name: SERVICE_URL, value: ${yaml(input.serviceUrl)} }`,
    `            - { name: INFERENCE_PUBLIC_URL, value: ${yaml(publicUrl)} }`,
    `            - { name: INFERENCE_NAME, value: ${yaml(input.name)} }`,
    `            - { name: INFERENCE_DEVICE, value: ${input.gpu ? 'cuda' : 'cpu'} }`,
    '            - name: SERVICE_REGISTRATION_TOKEN',
    `              valueFrom: { secretKeyRef: { name: ${name}-secrets, key: registration-token } }`,
    '            - name: INFERENCE_AUTH_TOKEN',
    `              valueFrom: { secretKeyRef: { name: ${name}-secrets, key: auth-token } }`,
    '          readinessProbe: { httpGet: { path: /health, port: http }, periodSeconds: 10 }',
    '          volumeMounts: [{ name: data, mountPath: /app/data }]',
  ];
  if (input.gpu) out.push('          resources: { limits: { nvidia.com/gpu: 1 } }');
  out.push(
    '      volumes: [{ name: data, emptyDir: {} }]',
    '---',
    'apiVersion: v1',
    'kind: Service',
    `metadata: { name: ${name} }`,
    'spec:',
    `  selector: { app: ${name} }`,
    '  ports: [{ name: http, port: 8000, targetPort: http }]',
  );
  return out.join('\n');
}
