import { DataTypes, type Model, type Optional, type Sequelize } from 'sequelize';

export interface UserTokenRow {
  id: string;
  organization_id: string;
  principal: string;
  /** SHA-256 of the token; the token itself is shown once and never stored. */
  token_hash: string;
  /** Id of the API key that issued it. */
  issued_by: string;
  expires_at: number;
  created_at: number;
  revoked_at: number | null;
}

export function defineUserToken(sequelize: Sequelize) {
  return sequelize.define<Model<UserTokenRow, Optional<UserTokenRow, 'revoked_at'>>>(
    'UserToken',
    {
      id: { type: DataTypes.STRING(64), primaryKey: true },
      organization_id: { type: DataTypes.STRING(64), allowNull: false },
      principal: { type: DataTypes.STRING(140), allowNull: false },
      token_hash: { type: DataTypes.STRING(64), allowNull: false },
      issued_by: { type: DataTypes.STRING(64), allowNull: false },
      expires_at: { type: DataTypes.BIGINT, allowNull: false },
      created_at: { type: DataTypes.BIGINT, allowNull: false },
      revoked_at: { type: DataTypes.BIGINT, allowNull: true },
    },
    { tableName: 'user_tokens', timestamps: false },
  );
}
