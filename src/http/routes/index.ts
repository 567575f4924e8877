import type { Plugin } from '@hapi/hapi';
import type { Gateway } from '../../domain/gateway.js';
import { approvalRoutes } from './approvals/index.js';
import { callRoutes } from './calls/index.js';
import { capabilityRoutes } from './capabilities/index.js';
import { connectRoutes } from './connect/index.js';
import { captureRoutes } from './captures/index.js';
import { connectionRoutes } from './connections/index.js';
import { discoverRoutes } from './discover/index.js';
import { grantRoutes } from './grants/index.js';
import { hostedRoutes } from './hosted/index.js';
import { mcpRoutes } from './mcp/index.js';
import { oauthAppRoutes } from './oauth-apps/index.js';
import { principalRoutes } from './principals/index.js';
import { providerRoutes } from './providers/index.js';
import { redirectUriRoutes } from './redirect-uris/index.js';
import { systemRoutes } from './system/index.js';
import { taskRoutes } from './tasks/index.js';
import { tokenRoutes } from './tokens/index.js';
import { usageRoutes } from './usage/index.js';
import { webhookRoutes } from './webhooks/index.js';

/** Every resource's plugin; the server registers them in this order. */
export const routePlugins: Plugin<Gateway>[] = [systemRoutes, tokenRoutes, principalRoutes, grantRoutes, redirectUriRoutes, oauthAppRoutes, discoverRoutes, webhookRoutes, connectionRoutes, taskRoutes, capabilityRoutes, providerRoutes, connectRoutes, hostedRoutes, callRoutes, captureRoutes, usageRoutes, approvalRoutes, mcpRoutes];
