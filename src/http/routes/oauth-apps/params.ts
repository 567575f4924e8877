import Joi from 'joi';
import { fields } from '../../../domain/contracts/fields.js';

export const slugParams = Joi.object<{ slug: string }>({ slug: fields.pathId().required() });
