package io.conduit.agent.port;

/** Which stage is calling a model: the summarizer may be configured to use a cheaper one. */
public enum ModelRole { PLANNER, GENERATOR, SUMMARIZER }
