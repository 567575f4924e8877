import Joi from 'joi';
import { fields } from '../../fields.js';

export const slugParams = Joi.object({ slug: fields.pathId().required() });
