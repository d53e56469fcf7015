/** The start of error_message of a row failed by reconciliation; a later answer or status revives it. */
export const UNCONFIRMED = "outcome not confirmed";
