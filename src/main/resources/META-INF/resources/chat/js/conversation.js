// The conversation pane: messages from a thread's state, then the thread protocol's events applied as they come
// (text deltas, tool-call cards, re-plan notes, interrupts, per-turn usage). Everything is keyed by the ids the
// server gives (message id, tool_call_id, interrupt_id), so a replayed event never shows anything twice.
import { renderMarkdown } from "./markdown.js";
import { userActions, answerActions, addCodeCopy } from "./actions.js";
import { quizQuestion } from "./quiz.js";
import { toolCard } from "./cards.js";
import { el, textOf } from "./dom.js";

/** The image URLs of a message's content blocks (OpenAI's image_url, LangChain's image with a url or base64 data). */
function imagesOf(content) {
  if (!Array.isArray(content)) return [];
  return content.map((b) => b.type === "image_url" ? (b.image_url?.url ?? b.image_url ?? b.url)
    : b.type === "image" ? (b.url ?? (b.data ? "data:" + (b.mime_type || "image/png") + ";base64," + b.data : null)) : null)
    .filter((u) => typeof u === "string" && /^(https?:|data:image\/)/.test(u));
}

export class Conversation {
  constructor(root, { onAnswer, onEdit, onRegenerate }) {
    this.root = root;
    this.onAnswer = onAnswer; // (interrupt {id, namespace}, response) => Promise
    this.onEdit = onEdit; // (user row, edited text): branch the conversation from before that message
    this.onRegenerate = onRegenerate; // (answer row): ask again from the step before the answer
    this.clear();
  }

  clear() {
    this.root.replaceChildren();
    this.messages = new Map(); // message id -> {node, body, text, done}
    this.cards = new Map(); // tool_call_id -> card
    this.interrupts = new Map(); // interrupt_id -> node
    this.questions = new Map(); // a question's text -> its card (a quiz question shows once: quiz.js)
    this.open = new Map(); // namespace key -> {message, blocks: index -> block}
    this.paint = new Set();
    this.turn = null;
    this.pending = null;
  }

  empty(html) {
    const hint = el("div", "empty");
    hint.innerHTML = html; // only the page's own constant markup
    this.root.append(hint);
  }

  /** Follows the conversation while the reader is at its end (or always, when `force`). */
  scroll(force = false) {
    const r = this.root;
    if (force || r.scrollHeight - r.scrollTop - r.clientHeight < 160) requestAnimationFrame(() => { r.scrollTop = r.scrollHeight; });
  }

  // ---- from state

  /** Shows the thread's checkpointed messages (LangChain dicts of GET /threads/{id}/state). */
  showState(state) {
    const messages = state?.values?.messages || [];
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i];
      if (m.type === "human") this.user(textOf(m.content), m.id, imagesOf(m.content));
      else if (m.type === "ai") {
        const text = textOf(m.content);
        const quiz = quizQuestion(text);
        if (quiz) {
          // the question and its answer after it: one answered card (or the live card already shown)
          const answer = messages[i + 1]?.type === "human" ? messages[++i] : null;
          if (!this.questions.has(quiz.question_text)) this.askedBefore(quiz, answer ? textOf(answer.content) : null);
          this.messages.set(m.id, { done: true });
          if (answer) this.messages.set(answer.id, { done: true });
          continue;
        }
        const reasoning = Array.isArray(m.content) ? m.content.filter((b) => b.type === "reasoning").map((b) => b.reasoning).join("")
          : m.additional_kwargs?.reasoning_content || "";
        if (text || reasoning || !(m.tool_calls || []).length) {
          const shown = this.assistant(m.id, text, true);
          if (reasoning) { this.thinking(shown).textContent = reasoning; this.render(shown); }
        } else this.messages.set(m.id, { done: true });
        for (const call of m.tool_calls || []) this.card(call.id, call.name).setArgs(call.args, true);
      } else if (m.type === "tool") {
        this.card(m.tool_call_id, m.name).finish(textOf(m.content), m.status === "error");
      }
    }
    for (const i of state?.interrupts || []) this.ask(i.id, [], i.value);
    this.scroll(true);
  }

  /** A streamed message that repeats a quiz question is hidden: its card shows it (drawn here if not on the page). */
  asQuiz(m) {
    const quiz = quizQuestion(m.text);
    if (!quiz) return;
    m.quiz = true;
    if (this.questions.has(quiz.question_text)) return;
    this.askedBefore(quiz, null);
    m.node.before(this.questions.get(quiz.question_text));
  }

  /** A quiz question answered in an earlier turn, as its card with the answer chosen. */
  askedBefore(quiz, answer) {
    const id = "asked:" + quiz.question_num + ":" + quiz.question_text;
    this.ask(id, [], quiz);
    const box = this.interrupts.get(id);
    const chosen = [...box.querySelectorAll(".choice")].find((b) => b.lastChild.textContent === answer);
    chosen?.classList.add("chosen");
    if (answer != null && !chosen) box.append(el("div", "interrupt-answer", "Answered: " + answer));
    this.answered([id]);
  }

  // ---- messages

  user(text, id, images = []) {
    if (id && this.messages.has(id)) return;
    this.waited();
    const row = el("div", "msg user");
    const bubble = el("div", "bubble", text);
    if (images.length) {
      const strip = el("div", "images");
      for (const url of images) { const i = el("img"); i.src = url; i.alt = "attached image"; strip.append(i); }
      row.append(strip);
    }
    row.append(bubble, userActions(row, bubble, (r, edited) => this.onEdit(r, edited)));
    if (id) row.dataset.messageId = id;
    this.root.append(row);
    if (id) this.messages.set(id, { node: row, done: true });
    this.scroll(true);
  }

  assistant(id, text = "", done = false) {
    let m = this.messages.get(id);
    if (m) return m;
    const row = el("div", "msg ai");
    row.dataset.messageId = id;
    const body = el("div", "bubble markdown");
    m = { node: row, body, text, done };
    row.append(body, answerActions(row, () => m.text, (r) => this.onRegenerate(r)));
    this.root.append(row);
    this.messages.set(id, m);
    this.render(m);
    return m;
  }

  /** A reasoning model's thinking, streamed into a collapsed box above its answer. */
  thinking(m) {
    if (!m.thoughts) {
      const box = el("details", "thinking");
      box.append(el("summary", null, "Thinking"));
      m.thoughts = el("div", "thinking-text");
      box.append(m.thoughts);
      m.body.before(box);
      m.node.classList.add("has-thinking");
      m.node.hidden = false;
    }
    return m.thoughts;
  }

  render(m) {
    if (!m.body) return;
    if (m.done && !m.quiz) this.asQuiz(m);
    m.body.innerHTML = renderMarkdown(m.text); // sanitized: model output cannot inject markup (markdown.js)
    addCodeCopy(m.body);
    m.body.hidden = m.text === "";
    m.node.hidden = m.text === "" && !m.thoughts || !!m.quiz; // a planner turn that only calls tools shows as its cards
    m.node.classList.toggle("streaming", !m.done);
    this.scroll();
  }

  /** Repaints streamed text once per frame, however many deltas arrived in it. */
  repaint(m) {
    if (this.paint.size === 0) requestAnimationFrame(() => { for (const x of this.paint) this.render(x); this.paint.clear(); });
    this.paint.add(m);
  }

  /** Three dots where the answer will be, until its first token, card or question (or the run's end). */
  waiting() {
    this.waited();
    this.turnLog = { replans: [], partial: "" }; // what the page records of the turn (turnlog.js)
    this.pending = el("div", "msg ai pending");
    this.pending.setAttribute("aria-label", "The assistant is thinking");
    this.pending.append(el("div", "bubble dots", ""));
    for (let i = 0; i < 3; i++) this.pending.firstChild.append(el("span"));
    this.root.append(this.pending);
    this.scroll(true);
  }

  waited() {
    this.pending?.remove();
    this.pending = null;
  }

  // ---- tool cards

  card(id, name) {
    let c = this.cards.get(id);
    if (c) {
      if (name && !c.name) c.setName(name);
      return c;
    }
    c = toolCard(name);
    this.root.append(c.node);
    this.cards.set(id, c);
    this.scroll();
    return c;
  }

  // ---- interrupts

  /** An interrupt as a question with an answer box, and a button per choice when the payload offers them. */
  ask(interruptId, namespace, payload) {
    if (this.interrupts.has(interruptId)) return;
    const box = el("div", "interrupt");
    box.dataset.interruptId = interruptId;
    const p = payload && typeof payload === "object" ? payload : { question: String(payload ?? "") };
    const head = p.question_num && p.total_questions ? "Question " + p.question_num + " of " + p.total_questions : "The assistant asks";
    box.append(el("div", "interrupt-head", head));
    box.append(el("div", "interrupt-question", p.question_text || p.question || p.message || JSON.stringify(p)));
    const answer = (response, control) => {
      box.querySelectorAll("button, input").forEach((x) => { x.disabled = true; });
      control?.classList.add("chosen");
      this.onAnswer({ id: interruptId, namespace }, response).catch(() => {
        box.querySelectorAll("button, input").forEach((x) => { x.disabled = false; });
      });
    };
    if (Array.isArray(p.choices) && p.choices.length) {
      const choices = el("div", "choices");
      p.choices.forEach((choice, i) => {
        const b = el("button", "choice");
        b.type = "button";
        b.append(el("span", "letter", String.fromCharCode(65 + i)), el("span", null, String(choice)));
        b.onclick = () => answer(String(choice), b);
        choices.append(b);
      });
      box.append(choices);
    }
    const form = el("form", "interrupt-form");
    const input = el("input");
    input.placeholder = p.choices ? "…or type an answer" : "Your answer";
    input.setAttribute("aria-label", "Answer");
    const send = el("button", "primary", "Answer");
    form.append(input, send);
    form.onsubmit = (e) => {
      e.preventDefault();
      if (input.value.trim()) answer(input.value.trim(), send);
    };
    box.append(form);
    this.root.append(box);
    this.interrupts.set(interruptId, box);
    if (p.question_text) this.questions.set(p.question_text, box);
    this.scroll();
    if (!p.choices) input.focus({ preventScroll: true });
  }

  answered(ids) {
    for (const id of ids) {
      const box = this.interrupts.get(id);
      if (box) { box.classList.add("answered"); box.querySelectorAll("button, input").forEach((x) => { x.disabled = true; }); }
    }
  }

  pendingInterrupts() {
    return [...this.interrupts.values()].filter((b) => !b.classList.contains("answered"));
  }

  // ---- notes and usage

  note(text, cls = "note") {
    const n = el("div", cls, text);
    this.root.append(n);
    this.scroll();
    return n;
  }

  /** One line under a turn: tokens, latency and cost of its model calls (the run's llm_calls in state). */
  usage(calls, wallMillis) {
    if (!calls.length && wallMillis == null) return;
    const sum = (f) => calls.reduce((s, c) => s + (c[f] || 0), 0);
    const parts = [];
    if (calls.length) parts.push(sum("inputTokens") + " in · " + sum("outputTokens") + " out tokens");
    if (calls.length) parts.push(calls.length + (calls.length === 1 ? " model call" : " model calls"));
    if (calls[0]?.timeToFirstTokenMillis >= 0) parts.push("first token " + seconds(calls[0].timeToFirstTokenMillis));
    if (wallMillis != null) parts.push(seconds(wallMillis) + " total");
    const cost = sum("costUsd");
    if (cost > 0) parts.push("$" + cost.toFixed(cost < 0.01 ? 5 : 3));
    const n = el("div", "usage", parts.join("  ·  "));
    n.title = calls.map((c) => c.stage + " (" + c.model + "): " + c.inputTokens + " → " + c.outputTokens + " tokens, " + seconds(c.durationMillis)).join("\n");
    this.root.append(n);
    this.scroll();
    return n;
  }

  // ---- protocol events

  apply(event) {
    const { method, params } = event;
    const data = params.data || {};
    if (this.pending && (method === "messages" && data.event === "content-block-delta" || method === "tools" || method === "input.requested")) this.waited();
    const key = (params.namespace || []).join("|");
    if (method === "messages") this.message(key, data);
    else if (method === "tools") {
      const c = this.card(data.tool_call_id, data.tool_name);
      if (data.event === "tool-started" && data.input !== undefined) c.setArgs(data.input, false);
      else if (data.event === "tool-finished") c.finish(data.output, false);
      else if (data.event === "tool-error") c.finish(data.message, true);
    } else if (method === "input.requested") {
      this.ask(data.interrupt_id, params.namespace || [], data.payload);
    } else if (method === "input.answered") {
      this.answered(data.interrupt_ids || []);
    } else if (method.startsWith("custom") && data.name === "planning_retry") {
      const p = data.payload || {};
      const n = this.note("↻ Re-planning" + (p.attempt ? " (" + p.attempt + "/" + p.budget + ")" : "") + ": " + (p.problems || []).join("; "), "note replan");
      n.title = "The verifier found the tools' results wanting and asked the planner to try again";
      this.turnLog?.replans.push(n.textContent);
    }
  }

  message(key, data) {
    if (data.event === "message-start") {
      const existing = this.messages.get(data.id);
      // a message already shown whole (from state) is not streamed again
      const m = existing?.done ? null : this.assistant(data.id, "", false);
      this.open.set(key, { message: m, blocks: new Map() });
      return;
    }
    const open = this.open.get(key);
    if (!open || !open.message) return;
    const m = open.message;
    if (data.event === "content-block-start") {
      const c = data.content || {};
      open.blocks.set(data.index, c);
      if (c.type === "tool_call_chunk" || c.type === "tool_call") this.card(c.id, c.name);
    } else if (data.event === "content-block-delta") {
      const block = open.blocks.get(data.index) || {};
      const d = data.delta || {};
      if (d.type === "text-delta") { m.text += d.text; this.repaint(m); }
      else if (d.type === "reasoning-delta") this.thinking(m).append(d.reasoning || "");
      else if (d.type === "tool-call-delta" && block.id) this.card(block.id, block.name).addArgs(d.args || "");
    } else if (data.event === "content-block-finish") {
      const c = data.content || {};
      if (c.type === "tool_call") this.card(c.id, c.name).setArgs(c.args, true);
    } else if (data.event === "message-finish") {
      m.done = true;
      this.repaint(m);
      this.open.delete(key);
    }
    // a model `error` is not shown: the run's end says what became of it (failed, or stopped by a cancel)
  }

  /** A run ended: close what it left streaming (a cancel stops a message mid-way). */
  settle() {
    this.waited();
    for (const { message } of this.open.values()) if (message) {
      message.done = true;
      this.render(message);
      if (this.turnLog && message.text) this.turnLog.partial += message.text; // stopped mid-way: not in state
    }
    this.open.clear();
    for (const c of this.cards.values()) if (c.node.classList.contains("running")) c.stopped();
  }
}

function seconds(ms) {
  return ms < 1000 ? Math.round(ms) + " ms" : (ms / 1000).toFixed(1) + " s";
}

