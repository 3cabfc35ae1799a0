// Time travel in the page: the conversation as it was at a step of the history panel, whose next message (or a
// "continue") runs from that step's checkpoint; a user message edited, or an answer regenerated, forks from the
// checkpoint before that message (branch.js). Each is a new branch of the same thread: its head moves to the branch.
import { api } from "./api.js";
import { checkpointBefore, messageIdAt } from "./branch.js";

/**
 * @param ctx {page, conversation, startRun(input, checkpointId), reopen(), toast(text), fail(error), input}
 * @returns {forkFrom(cp), setFork(fork), edit(row, text), regenerate(row)}
 */
export function timeTravel({ page, conversation, startRun, reopen, toast, fail, input }) {
  const banner = document.getElementById("fork-banner");

  /** Shows the conversation as it was at a step; what is sent next continues from there. */
  function forkFrom(cp) {
    if (page.busy) { toast("Wait for the answer (or stop it) before going back in time."); return; }
    conversation.clear();
    conversation.showState({ values: cp.values || {} });
    setFork({ checkpoint_id: cp.checkpoint.checkpoint_id, step: cp.metadata?.step, next: cp.next || [] });
    input.focus();
  }

  function setFork(fork) {
    page.fork = fork;
    banner.hidden = !fork;
    if (!fork) return;
    banner.querySelector(".fork-text").textContent = "Branching from step " + (fork.step ?? "?")
      + ": what you send now continues from there, as a new branch of this chat.";
    banner.querySelector(".fork-continue").hidden = !fork.next.length;
  }

  banner.querySelector(".fork-cancel").onclick = () => reopen().catch(fail);
  banner.querySelector(".fork-continue").onclick = () => {
    const id = page.fork?.checkpoint_id;
    setFork(null);
    startRun(null, id);
  };

  /** The id and the checkpoint before the row's message, from the thread's state and history. */
  async function before(row, type) {
    const rows = [...conversation.root.querySelectorAll(type === "human" ? ".msg.user" : ".msg.ai:not(.pending):not([hidden])")];
    const [state, steps] = await Promise.all([api.state(page.threadId), api.history(page.threadId, 200)]);
    const id = row.dataset.messageId && type === "human" ? row.dataset.messageId : messageIdAt(state.values?.messages || [], type, rows.indexOf(row));
    const cp = id && checkpointBefore(steps, id, type === "human");
    if (!cp) throw new Error("This message's step is not in the chat's history.");
    return cp;
  }

  async function edit(row, text) {
    if (page.busy) { toast("Wait for the answer (or stop it) before editing."); return; }
    try {
      const cp = await before(row, "human");
      conversation.clear();
      conversation.showState({ values: cp.values });
      conversation.user(text);
      setFork(null);
      await startRun({ messages: [{ role: "user", content: text, ...(cp.replace ? { id: cp.replace } : {}) }] }, cp.checkpoint_id);
    } catch (e) {
      fail(e);
    }
  }

  async function regenerate(row) {
    if (page.busy) { toast("Wait for the answer (or stop it) before regenerating."); return; }
    try {
      const cp = await before(row, "ai");
      conversation.clear();
      conversation.showState({ values: cp.values });
      setFork(null);
      await startRun(null, cp.checkpoint_id);
    } catch (e) {
      fail(e);
    }
  }

  return { forkFrom, setFork, edit, regenerate };
}
