// A test-only page (never shipped): the smallest chat that LangGraph's React hook useStream drives, so that the
// browser test sees what a real front end sees. The thread id lives in the URL (?thread=), so a reload reopens the
// same thread and useStream rebuilds its view from the thread's state and history, as agent-chat-ui does.
// Bundled by use-stream-reload.mjs with esbuild into target/; query: ?api=<Conduit URL>&assistant=<assistant id>.
import { useState } from "react";
import { createRoot } from "react-dom/client";
import { useStream } from "@langchain/langgraph-sdk/react";

const params = new URLSearchParams(location.search);

function textOf(m) {
  return typeof m.content === "string" ? m.content : m.content.filter((b) => b.type === "text").map((b) => b.text).join("");
}

function App() {
  const [threadId, setThreadId] = useState(params.get("thread"));
  const [draft, setDraft] = useState("");
  const [reply, setReply] = useState("");
  const stream = useStream({
    apiUrl: params.get("api"),
    assistantId: params.get("assistant"),
    messagesKey: "messages",
    threadId,
    onThreadId: (id) => {
      setThreadId(id);
      const url = new URL(location.href);
      url.searchParams.set("thread", id);
      history.replaceState(null, "", url); // so that a reload opens this thread
    },
  });
  const interrupt = stream.interrupt;
  // the page's state for the test to read: data attributes rather than parsing text
  const state = stream.isLoading ? "loading" : interrupt ? "interrupted" : "idle";
  const question = interrupt && typeof interrupt.value === "object" ? interrupt.value.question : interrupt?.value;
  return (
    <main id="app" data-state={state} data-thread={threadId ?? ""}>
      <ol id="messages">
        {stream.messages.map((m) => (
          <li key={m.id} className={"msg " + m.type}>{textOf(m)}</li>
        ))}
      </ol>
      {interrupt && (
        // the interrupt as useStream hands it over: a question with an id, or {when: "breakpoint"} when it is none
        <section id="interrupt" data-id={interrupt.id ?? ""} data-when={interrupt.when ?? ""}>
          <p id="question">{typeof question === "string" ? question : JSON.stringify(interrupt)}</p>
          <form id="answer" onSubmit={(e) => {
            e.preventDefault();
            // answered by its id, LangGraph's resume map (what agent-chat-ui's interrupt views send)
            stream.submit(undefined, { command: { resume: { [interrupt.id]: reply } } });
            setReply("");
          }}>
            <input id="reply" value={reply} onChange={(e) => setReply(e.target.value)} />
            <button type="submit">Answer</button>
          </form>
        </section>
      )}
      <form id="composer" onSubmit={(e) => {
        e.preventDefault();
        stream.submit({ messages: [{ type: "human", content: draft }] });
        setDraft("");
      }}>
        <input id="input" value={draft} onChange={(e) => setDraft(e.target.value)} />
        <button type="submit">Send</button>
      </form>
      {stream.error ? <p id="error">{String(stream.error?.message ?? stream.error)}</p> : null}
    </main>
  );
}

createRoot(document.getElementById("root")).render(<App />);
