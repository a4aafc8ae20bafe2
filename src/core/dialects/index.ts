// The dialect of a project (SPEC §5.1): `dialect:` in project.yaml, `cqa` when absent.
import type { DialectName, ProjectRecord } from '../model/model.js';
import { cqa } from './cqa.js';
import { elmapi } from './elmapi.js';
import { elmapi3 } from './elmapi3.js';
import type { Dialect } from './types.js';

export type { Dialect } from './types.js';
export { cqa, elmapi, elmapi3 };

const DIALECT_BY_NAME: Readonly<Record<DialectName, Dialect>> = { cqa, elmapi, elmapi3 };

export function dialectOf(project: Pick<ProjectRecord, 'dialect'>): Dialect {
  return DIALECT_BY_NAME[project.dialect ?? 'cqa'];
}
