import { DataTypes, type Model, type Optional, type Sequelize } from 'sequelize';

export type Role = 'owner' | 'admin' | 'member';

export interface ApiKeyRow {
  id: string;
  organization_id: string;
  name: string | null;
  role: Role;
  /** SHA-256 of the key; the key itself is shown once and never stored. */
  key_hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export function defineApiKey(sequelize: Sequelize) {
  return sequelize.define<Model<ApiKeyRow, Optional<ApiKeyRow, 'last_used_at' | 'revoked_at'>>>(
    'ApiKey',
    {
      id: { type: DataTypes.STRING(64), primaryKey: true },
      organization_id: { type: DataTypes.STRING(64), allowNull: false },
      name: { type: DataTypes.STRING(100), allowNull: true },
      role: { type: DataTypes.STRING(20), allowNull: false },
      key_hash: { type: DataTypes.STRING(64), allowNull: false },
      created_at: { type: DataTypes.BIGINT, allowNull: false },
      last_used_at: { type: DataTypes.BIGINT, allowNull: true },
      revoked_at: { type: DataTypes.BIGINT, allowNull: true },
    },
    { tableName: 'api_keys', timestamps: false },
  );
}
