/** The registered OpenAPI media type; the api-catalog's `service-desc` declares the same one (RFC 9727 §4.1). */
export const OPENAPI_TYPE = "application/vnd.oai.openapi+json";
