/** Standalone ajv validator generated from schemas/config.schema.json. */
interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}
declare function validate(data: unknown): boolean;
declare namespace validate {
  let errors: SchemaError[] | null | undefined;
}
export = validate;
