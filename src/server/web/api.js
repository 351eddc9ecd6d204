// The server's JSON API: every answer is JSON, a refusal carries {"error": "<one line>"}.

async function answer(response) {
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

export async function get(path) {
  return answer(await fetch(path, { cache: "no-store" }));
}

export async function post(path, body = {}) {
  return answer(await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  }));
}
