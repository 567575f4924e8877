/** How a call ended (`pending` while it runs): the audit's outcomes, as filters and the API name them. */
export const CALL_OUTCOMES = ['hit', 'miss', 'fault', 'pending'] as const;
