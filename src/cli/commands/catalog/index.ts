import { Command } from 'commander';
import { list } from './list.js';
import { validate } from './validate.js';

export const catalog = new Command('catalog').description('inspect the task catalog and check catalog files').addCommand(list).addCommand(validate);
