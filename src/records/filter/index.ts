/** PocketBase-compatible filter language, sort and fields parameters for the records layer (see README.md). */
export * from './ast';
export { COMPILE_LIMITS, compileFilter } from './compiler';
export type { CompiledFilter } from './compiler';
export { FilterError } from './errors';
export type { FilterErrorSource } from './errors';
export { excerpt, FIELDS_LIMITS, parseFields, pickFields } from './fields';
export type { FieldsEntry, FieldsSelection } from './fields';
export { FILTER_LIMITS, parseFilter } from './parser';
export type { CollectionSchema, FieldSchema, FieldType, FilterContext } from './schema';
export { compileSort, SORT_LIMITS } from './sort';
export type { CompiledSort, CompiledSortTerm } from './sort';
export { addOrderBySort, andWhereFilter, toNamedParameters } from './typeorm';
export type { NamedSql } from './typeorm';
