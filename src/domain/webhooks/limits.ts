/** GET /v1/webhooks/{id}/deliveries shows this many of the most recent deliveries (docs/webhooks.md). */
export const DELIVERIES_SHOWN = 100;
