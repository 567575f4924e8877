import Joi from 'joi';

export interface Config {
  database: { url: string };
  server: { host: string; port: number; public_url: string; headers_timeout_ms: number; payload_timeout_ms: number };
  secret_key?: string;
  data_dir: string;
  catalog: { files: string[] };
  limits: { max_body_bytes: number; max_input_nodes: number; max_capture_bytes: number; max_page_bytes: number };
  rate_limits: Record<RateLimitClass, number> & { per_principal: { run: number } };
  fair_share: { cheap_bytes: number; max_debt_bytes: number; debt_half_life_ms: number; max_waiting: number; max_wait_ms: number };
  webhooks: {
    allow_private_targets: boolean;
    max_per_org: number;
    max_attempts: number;
    retry_base_ms: number;
    timeout_ms: number;
    poll_interval_ms: number;
    expiring_horizon_s: number;
    expiring_scan_interval_s: number;
  };
  connect: { session_ttl_s: number };
  connections_page: { ttl_s: number };
  approvals: { ttl_s: number };
  upstream: { timeout_ms: number; max_response_bytes: number; max_response_nodes: number };
  mcp: { enabled: boolean };
  /** Bearer token of GET /metrics; null (the default) leaves metrics off and the route absent. */
  metrics: { token: string | null };
  log: { level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent' };
  providers: Record<string, { base_url?: string }>;
}

export const rateLimitClasses = ['run', 'connections', 'connect_sessions', 'webhooks', 'tokens'] as const;
export type RateLimitClass = (typeof rateLimitClasses)[number];

const perMinute = Joi.number().integer().min(1).max(1_000_000);

const databaseUrl = Joi.string()
  .allow('')
  .pattern(/^(sqlite:|postgres:\/\/|postgresql:\/\/)/)
  .message('{{#label}} must start with sqlite: or postgres://');

export const configSchema = Joi.object<Config>({
  database: Joi.object({ url: databaseUrl.default('') }).default(),
  server: Joi.object({
    host: Joi.string().hostname().default('127.0.0.1'),
    port: Joi.number().integer().min(0).max(65535).default(8080),
    public_url: Joi.string().uri({ scheme: ['http', 'https'] }).allow('').default(''),
    headers_timeout_ms: Joi.number().integer().min(100).max(600000).default(10000),
    payload_timeout_ms: Joi.number().integer().min(100).max(3600000).default(30000),
  }).default(),
  secret_key: Joi.string().min(32),
  data_dir: Joi.string().default('data'),
  catalog: Joi.object({ files: Joi.array().items(Joi.string()).default([]) }).default(),
  limits: Joi.object({
    max_body_bytes: Joi.number().integer().min(1024).max(100 * 1024 * 1024).default(1048576),
    max_input_nodes: Joi.number().integer().min(1).max(100_000_000).default(100000),
    max_capture_bytes: Joi.number().integer().min(1024).max(64 * 1024 * 1024).default(65536),
    max_page_bytes: Joi.number().integer().min(16 * 1024).max(256 * 1024 * 1024).default(262144),
  }).default(),
  rate_limits: Joi.object({
    ...Object.fromEntries(rateLimitClasses.map((name) => [name, perMinute.default(600)])),
    per_principal: Joi.object({ run: perMinute.default(120) }).default(),
  }).default(),
  fair_share: Joi.object({
    cheap_bytes: Joi.number().integer().min(0).max(1024 * 1024 * 1024).default(65536),
    max_debt_bytes: Joi.number().integer().min(1).max(1024 * 1024 * 1024).default(1048576),
    debt_half_life_ms: Joi.number().integer().min(10).max(600000).default(1000),
    max_waiting: Joi.number().integer().min(0).max(10000).default(16),
    max_wait_ms: Joi.number().integer().min(0).max(600000).default(10000),
  }).default(),
  webhooks: Joi.object({
    allow_private_targets: Joi.boolean().default(false),
    max_per_org: Joi.number().integer().min(1).max(1000).default(10),
    max_attempts: Joi.number().integer().min(1).max(50).default(7),
    retry_base_ms: Joi.number().integer().min(1).default(5000),
    timeout_ms: Joi.number().integer().min(100).default(10000),
    poll_interval_ms: Joi.number().integer().min(10).max(60000).default(500),
    expiring_horizon_s: Joi.number().integer().min(60).default(3 * 86400),
    expiring_scan_interval_s: Joi.number().integer().min(1).default(600),
  }).default(),
  connect: Joi.object({ session_ttl_s: Joi.number().integer().min(60).max(86400).default(900) }).default(),
  connections_page: Joi.object({ ttl_s: Joi.number().integer().min(60).max(7 * 86400).default(3600) }).default(),
  approvals: Joi.object({ ttl_s: Joi.number().integer().min(60).max(86400).default(900) }).default(),
  upstream: Joi.object({
    timeout_ms: Joi.number().integer().min(100).max(600000).default(10000),
    max_response_bytes: Joi.number().integer().min(1).max(1024 * 1024 * 1024).default(10485760),
    max_response_nodes: Joi.number().integer().min(1).max(100_000_000).default(100000),
  }).default(),
  mcp: Joi.object({ enabled: Joi.boolean().default(true) }).default(),
  metrics: Joi.object({ token: Joi.string().min(16).allow(null).empty('').default(null) }).default(),
  log: Joi.object({
    level: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  }).default(),
  providers: Joi.object()
    .pattern(/^[a-z0-9-]+$/, Joi.object({ base_url: Joi.string().uri({ scheme: ['http', 'https'] }) }))
    .default({}),
});
