// Time travel: the thread's checkpoints (POST /threads/{id}/history, newest first) in a side panel. Any step can be
// opened to read its state (values, next, metadata), and the conversation forked from it: the page then shows that
// step's messages and the next message sent (or a "continue") starts a run from its checkpoint_id, a new branch of
// the same thread. The checkpoints of the old branch stay in the history.
import { api } from "./api.js";
import { el, textOf } from "./dom.js";

/** One line that says what a step is: its step number, source, the node(s) it ran after, and its newest message. */
export function describe(cp, ranBy = []) {
  const md = cp.metadata || {};
  const writes = md.writes && typeof md.writes === "object" ? Object.keys(md.writes) : ranBy;
  const msgs = cp.values?.messages || [];
  const last = msgs[msgs.length - 1];
  return {
    head: "step " + (md.step ?? "?") + " · " + (md.source || "?") + (writes.length ? " · " + writes.join(", ") : ""),
    preview: last ? (last.type === "human" ? "You: " : last.type === "ai" ? "AI: " : last.type + ": ")
      + (textOf(last.content) || (last.tool_calls?.length ? "calls " + last.tool_calls.map((c) => c.name).join(", ") : "…")) : "(no messages)",
    next: cp.next || [],
  };
}

export class HistoryPanel {
  /** @param handlers {onFork(checkpoint)}: the page shows that step and branches from it */
  constructor(root, handlers) {
    this.root = root;
    this.handlers = handlers;
    this.list = root.querySelector(".history-list");
    this.threadId = null;
    root.querySelector(".history-close").onclick = () => this.hide();
  }

  get shown() { return !this.root.hidden; }

  hide() {
    this.root.hidden = true;
    document.body.classList.remove("show-history");
  }

  async show(threadId) {
    this.root.hidden = false;
    document.body.classList.add("show-history");
    await this.refresh(threadId);
  }

  /** Loads the thread's checkpoints (when the panel is open). */
  async refresh(threadId = this.threadId) {
    this.threadId = threadId;
    if (!this.shown) return;
    if (!threadId) { this.list.replaceChildren(el("li", "none", "No chat open")); return; }
    const steps = await api.history(threadId, 200);
    if (threadId !== this.threadId) return;
    // the node(s) that wrote a step are those its parent was waiting to run (the list is newest first)
    const byId = new Map(steps.map((cp) => [cp.checkpoint?.checkpoint_id, cp]));
    const ranBy = (cp) => byId.get(cp.parent_checkpoint?.checkpoint_id)?.next || [];
    this.list.replaceChildren(...steps.map((cp) => this.item(cp, ranBy(cp))));
    if (!steps.length) this.list.append(el("li", "none", "No steps yet"));
  }

  item(cp, ranBy) {
    const li = el("li", "step");
    li.dataset.checkpointId = cp.checkpoint?.checkpoint_id;
    const d = describe(cp, ranBy);
    const open = el("button", "step-open");
    open.type = "button";
    open.append(el("span", "step-head", d.head), el("span", "step-preview", d.preview));
    const detail = el("div", "step-detail");
    detail.hidden = true;
    open.onclick = () => {
      detail.hidden = !detail.hidden;
      li.classList.toggle("open", !detail.hidden);
      if (!detail.hidden && !detail.childElementCount) this.fill(detail, cp, d);
    };
    li.append(open, detail);
    return li;
  }

  fill(detail, cp, d) {
    const section = (label, value) => {
      const s = el("details", "step-section");
      s.append(el("summary", null, label), el("pre", null, JSON.stringify(value, null, 2)));
      return s;
    };
    const next = el("div", "step-next", "next: " + (d.next.length ? d.next.join(", ") : "(the run ended here)"));
    const fork = el("button", "primary step-fork", "Fork from here");
    fork.type = "button";
    fork.title = "Show the conversation as it was at this step; what you send next continues from here, as a new branch";
    fork.onclick = () => this.handlers.onFork(cp);
    const when = el("div", "step-when", cp.created_at ? new Date(cp.created_at).toLocaleString() : "");
    const values = section("values", cp.values);
    values.open = true;
    detail.append(next, when, values, section("metadata", cp.metadata), fork);
  }
}
