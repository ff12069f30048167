// Starts Swagger UI on the service's own OpenAPI document. A file of its own, not an inline script, so the page
// works under a Content-Security-Policy without 'unsafe-inline'.
/* global SwaggerUIBundle */
window.ui = SwaggerUIBundle({
  // The service's own document, next to this page's folder (/docs/ -> /openapi.json).
  url: new URL('../openapi.json', window.location.href).href,
  dom_id: '#swagger-ui',
  deepLinking: true,
  // BaseLayout: no top bar (the standalone layout's field would load any other document into this origin's page).
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  // No badge fetched from validator.swagger.io: the page makes no request outside this service.
  validatorUrl: null,
  displayRequestDuration: true,
});
