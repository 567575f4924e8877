import { DataTypes } from 'sequelize';

/** Column shapes shared by every migration: ids are prefixed strings, times are epoch milliseconds, money is micro-dollars. */
export const column = {
  id: () => ({ type: DataTypes.STRING(64), allowNull: false, primaryKey: true }),
  ref: (allowNull = false) => ({ type: DataTypes.STRING(64), allowNull }),
  text: (length: number, allowNull = false) => ({ type: DataTypes.STRING(length), allowNull }),
  longText: (allowNull = false) => ({ type: DataTypes.TEXT, allowNull }),
  json: (fallback: string) => ({ type: DataTypes.TEXT, allowNull: false, defaultValue: fallback }),
  time: (allowNull = false) => ({ type: DataTypes.BIGINT, allowNull }),
  integer: (allowNull = false, defaultValue?: number) => ({ type: DataTypes.INTEGER, allowNull, defaultValue }),
  money: () => ({ type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 }),
};
