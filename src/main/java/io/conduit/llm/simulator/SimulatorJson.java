package io.conduit.llm.simulator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The simulator's own JSON mapper: a plain one, so that what it writes (explicit nulls such as
 * {@code "finish_reason": null}, which OpenAI sends) does not depend on how the rest of the service configures Jackson.
 */
final class SimulatorJson {

    static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private SimulatorJson() {
    }
}
