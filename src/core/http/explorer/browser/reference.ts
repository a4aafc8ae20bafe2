// The API reference page's script (docs/explorer.md#the-api-reference): Swagger UI, shipped with
// the package and inlined in the page, renders /openapi.json. It is a reference, not a client:
// "Try it out" is off (the explorer runs queries). A token typed here fetches the document with
// it (so its project is described too), stays in this closure only, and its field is emptied.
declare const SwaggerUIBundle: (options: Record<string, unknown>) => unknown;

let token = '';

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

function render(): void {
  SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: false,
    supportedSubmitMethods: [],
    tryItOutEnabled: false,
    validatorUrl: null,
    persistAuthorization: false,
    requestInterceptor: (req: { url: string; headers: Record<string, string> }) => {
      if (token && new URL(req.url, location.href).origin === location.origin) req.headers.Authorization = `Bearer ${token}`;
      return req;
    },
  });
}

function status(text: string): void {
  byId('token-status').textContent = text;
}

byId<HTMLFormElement>('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const field = byId<HTMLInputElement>('token');
  token = field.value.trim();
  field.value = '';
  status(token ? 'The document is asked with the token: its project is described too.' : 'Public projects only.');
  render();
});
byId('forget').addEventListener('click', () => {
  token = '';
  byId<HTMLInputElement>('token').value = '';
  status('Public projects only.');
  render();
});
render();
