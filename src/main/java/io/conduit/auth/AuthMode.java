package io.conduit.auth;

/** How callers prove who they are ({@code conduit.auth.mode}). */
public enum AuthMode {
    /** Nobody is asked: every caller is the anonymous principal, who sees everything (dev mode's and tests' default). */
    NONE,
    /** A key from the admin API (or the configured admin key) in {@code x-api-key} or {@code Authorization: Bearer}. */
    API_KEY,
    /** A JWT bearer token signed with the configured key: subject = principal, a {@code groups} claim gives admin. */
    JWT
}
