// The assistant picker: every assistant of the service; the one asked for in ?assistant=, else the last one chosen,
// else the `agent` graph's. The choice applies to new chats: a chat with runs shows (and keeps) its own assistant.
import { api } from "./api.js";

/** Fills the picker and answers the preferred assistant's id. */
export async function loadAssistants(picker, params) {
  const list = await api.assistants();
  picker.replaceChildren(...list.map((a) => {
    const o = document.createElement("option");
    o.value = a.assistant_id;
    o.textContent = a.name && a.name !== a.graph_id ? a.name + " (" + a.graph_id + ")" : a.graph_id;
    o.dataset.graph = a.graph_id;
    return o;
  }));
  const wanted = params.get("assistant") || localStorage.getItem("conduit.assistant");
  const match = list.find((a) => a.assistant_id === wanted || a.graph_id === wanted) || list.find((a) => a.graph_id === "agent");
  if (match) picker.value = match.assistant_id;
  picker.addEventListener("change", () => localStorage.setItem("conduit.assistant", picker.value));
  return match?.assistant_id;
}
