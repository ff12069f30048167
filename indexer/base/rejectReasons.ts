/** Why a record was not indexed; written to the rejects file and counted per level in the summary. */
export const REJECT_REASONS = [
  'missing_coordinate',
  'coordinate_out_of_range',
  'unparsable_house_number',
  'missing_street',
  'missing_key',
  'missing_name',
  'invalid_geometry',
  'malformed_record',
  'multiline_record',
  'elasticsearch_error',
] as const;

export type RejectReason = (typeof REJECT_REASONS)[number];

export interface Rejection {
  reason: RejectReason;
  detail: string;
}

export type Outcome<T> = { ok: true; value: T } | ({ ok: false } & Rejection);

export function reject(reason: RejectReason, detail: string): { ok: false } & Rejection {
  return { ok: false, reason, detail };
}
