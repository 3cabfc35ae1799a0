// A tool call as a card: its name and status in the summary, its arguments (streamed in) and its result inside.
import { el, pretty } from "./dom.js";

export function toolCard(name) {
  const node = el("details", "tool running");
  const summary = el("summary");
  const icon = el("span", "tool-icon", "⚙");
  const title = el("span", "tool-name", name || "tool");
  const status = el("span", "tool-status", "running");
  summary.append(icon, title, status);
  const args = el("pre", "tool-args");
  const result = el("pre", "tool-result");
  result.hidden = true;
  node.append(summary, el("div", "tool-label", "arguments"), args, result);
  let argText = "";
  return {
    node, name,
    setName(n) { this.name = n; title.textContent = n; },
    addArgs(delta) { argText += delta; args.textContent = argText; },
    setArgs(value, whole) { if (whole || !argText) { argText = pretty(value); args.textContent = argText; } },
    stopped() { node.classList.remove("running"); status.textContent = "not run"; },
    finish(output, error) {
      node.classList.remove("running");
      node.classList.toggle("failed", !!error);
      status.textContent = error ? "failed" : "done";
      result.hidden = false;
      result.textContent = pretty(output ?? "");
      result.dataset.label = error ? "error" : "result";
    },
  };
}
