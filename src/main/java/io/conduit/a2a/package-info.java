/**
 * Google's Agent2Agent protocol (A2A, v0.3 JSON-RPC binding, as LangGraph's Agent Server offers it) as a front door:
 * {@code POST /a2a/{assistant_id}} ({@code message/send}, {@code message/stream}, {@code tasks/get},
 * {@code tasks/cancel}) and the agent card at {@code /.well-known/agent-card.json?assistant_id=}. A thin adapter
 * beside the other doors: a message starts an ordinary run ({@link io.conduit.runs.submission.RunSubmission}; the
 * A2A context is the thread, the task the run) and the run is read from the thread's log in a format of its own
 * ({@code A2aFormat}: A2A's task events translated from the run's typed entries). See docs/a2a.md.
 */
package io.conduit.a2a;
