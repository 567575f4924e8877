import type { Sequelize } from 'sequelize';
import { defineApiKey } from './api-key.js';
import { defineOrganization } from './organization.js';
import { defineUserToken } from './user-token.js';

/** Models are defined per Sequelize instance, so a SQLite and a Postgres database can be open in one process. */
export function defineModels(sequelize: Sequelize) {
  return {
    Organization: defineOrganization(sequelize),
    ApiKey: defineApiKey(sequelize),
    UserToken: defineUserToken(sequelize),
  };
}

export type Models = ReturnType<typeof defineModels>;
export type { ApiKeyRow, Role } from './api-key.js';
export type { OrganizationRow } from './organization.js';
export type { UserTokenRow } from './user-token.js';
