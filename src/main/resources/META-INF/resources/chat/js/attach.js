// The attach button: files for the thread and images for the next message. A CSV (or any file that is not an
// image) is uploaded to the thread (POST /threads/{id}/files), where the analyst's tools read it by name; an image
// is read as a data: URL and sent with the next message as an image content block (docs/api.md), which the model
// sees. Pending images show as chips above the composer until the message is sent.
import { credentials, ApiError } from "./api.js";
import { el } from "./dom.js";

const MAX_IMAGE_BYTES = 700 * 1024; // a run's request is at most 1 MiB (conduit.api.max-body-bytes), base64 included

export class Attachments {
  /** @param ctx {input (file input), tray (chip list), ensureThread() -> thread id, onUploaded(file), fail(error)} */
  constructor({ input, tray, ensureThread, onUploaded, fail }) {
    this.input = input;
    this.tray = tray;
    this.images = []; // {name, url}
    this.ctx = { ensureThread, onUploaded, fail };
    input.addEventListener("change", () => {
      const files = [...input.files];
      input.value = "";
      this.add(files).catch(fail);
    });
  }

  async add(files) {
    for (const file of files) {
      if (file.type.startsWith("image/")) {
        if (file.size > MAX_IMAGE_BYTES) throw new Error(file.name + " is too large to send (" + Math.round(MAX_IMAGE_BYTES / 1024) + " KiB at most)");
        this.images.push({ name: file.name, url: await dataUrl(file) });
      } else {
        const chip = this.chip(file.name + " · uploading…", null);
        try {
          const stored = await upload(await this.ctx.ensureThread(), file);
          this.ctx.onUploaded(stored);
        } finally {
          chip.remove();
        }
      }
    }
    this.draw();
  }

  draw() {
    this.tray.replaceChildren(...this.images.map((img, i) => this.chip(img.name, () => { this.images.splice(i, 1); this.draw(); }, img.url)));
    this.tray.hidden = this.tray.childElementCount === 0;
  }

  chip(label, onRemove, thumb) {
    const c = el("span", "chip");
    if (thumb) { const i = el("img"); i.src = thumb; i.alt = ""; c.append(i); }
    c.append(el("span", null, label));
    if (onRemove) {
      const x = el("button", "chip-remove", "×");
      x.type = "button";
      x.setAttribute("aria-label", "Remove " + label);
      x.onclick = onRemove;
      c.append(x);
    }
    this.tray.append(c);
    this.tray.hidden = false;
    return c;
  }

  /** The images for the message being sent, as content blocks; the tray empties. */
  take() {
    const blocks = this.images.map((img) => ({ type: "image_url", image_url: { url: img.url } }));
    this.images = [];
    this.draw();
    return blocks;
  }
}

function dataUrl(file) {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(r.result);
    r.onerror = () => reject(r.error);
    r.readAsDataURL(file);
  });
}

async function upload(threadId, file) {
  const form = new FormData();
  form.append("file", file, file.name);
  const res = await fetch("/threads/" + encodeURIComponent(threadId) + "/files", { method: "POST", body: form, headers: credentials.headers() });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, body);
  return body;
}

/** One line that says what an uploaded file is: its name, and for a CSV its rows and columns. */
export function describeFile(f) {
  const csv = f.csv ? " · " + f.csv.row_count + " rows · " + f.csv.columns.map((c) => c.name).join(", ") : "";
  return "Attached " + f.name + csv;
}
