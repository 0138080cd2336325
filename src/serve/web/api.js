// The JSON API: every call returns the parsed body or throws an Error with the server's message.

export async function api(path, options = {}) {
  const init = { ...options };
  if (init.json !== undefined) {
    init.method = init.method || "POST";
    init.headers = { "content-type": "application/json" };
    init.body = JSON.stringify(init.json);
    delete init.json;
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = { error: text };
  }
  if (!response.ok) throw new Error(body.error || `${response.status}`);
  return body;
}

// The page's hash as a map (`#id=…&seat=…`).
export function hashParams() {
  return new URLSearchParams(location.hash.slice(1));
}
