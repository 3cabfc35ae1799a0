/**
 * The Vercel AI SDK's UI message stream (v1) as a front door: {@code useChat} talks to Conduit's runs. A thin adapter
 * beside {@code api} and {@code stream}: runs are started by {@link io.conduit.runs.submission.RunSubmission} and read from the
 * thread's log in a format of its own (UiStreamFormat: the UI message stream translated from the run's typed
 * entries), delivered through {@link io.conduit.runs.delivery}; nothing of runs is implemented here.
 * See docs/ai-sdk.md.
 */
package io.conduit.aisdk;
