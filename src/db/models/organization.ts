import { DataTypes, type Model, type Sequelize } from 'sequelize';

export interface OrganizationRow {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  /** JSON array of origins allowed to call with an Origin header. */
  trusted_origins: string;
  /** JSON array of allowlisted connect callbacks. */
  redirect_uris: string;
  created_at: number;
  updated_at: number;
}

export function defineOrganization(sequelize: Sequelize) {
  return sequelize.define<Model<OrganizationRow>>(
    'Organization',
    {
      id: { type: DataTypes.STRING(64), primaryKey: true },
      name: { type: DataTypes.STRING(100), allowNull: false },
      status: { type: DataTypes.STRING(20), allowNull: false },
      trusted_origins: { type: DataTypes.TEXT, allowNull: false },
      redirect_uris: { type: DataTypes.TEXT, allowNull: false },
      created_at: { type: DataTypes.BIGINT, allowNull: false },
      updated_at: { type: DataTypes.BIGINT, allowNull: false },
    },
    { tableName: 'organizations', timestamps: false },
  );
}
