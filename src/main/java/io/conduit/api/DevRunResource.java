package io.conduit.api;

import io.conduit.agent.AgentState;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.graph.Command;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.RunRequest;
import io.conduit.graph.Update;
import io.quarkus.arc.profile.UnlessBuildProfile;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import org.jboss.resteasy.reactive.RestStreamElementType;

/**
 * A temporary way to talk to the assistant until the Serving issue brings the real API: start a turn (or resume
 * one) and watch its events as server-sent events; read a thread's state. Not in production builds.
 */
@Path("/dev/threads/{threadId}")
@UnlessBuildProfile("prod")
public class DevRunResource {

    /** A turn: the user's message, and who the user is. {@code resume} answers a pending interrupt instead. */
    public record TurnRequest(String message, String user_id, Object resume) {
    }

    private final CompiledGraph agent;

    DevRunResource(CompiledGraph agent) {
        this.agent = agent;
    }

    @POST
    @Path("/runs")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.APPLICATION_JSON)
    public Multi<String> run(@PathParam("threadId") String threadId, TurnRequest body) {
        if (body == null || (body.resume() == null && (body.message() == null || body.message().isBlank()))) {
            throw new BadRequestException("send {\"message\": \"...\", \"user_id\": \"...\"}, or {\"resume\": <answer>}");
        }
        RunRequest request = RunRequest.on(threadId);
        if (body.resume() != null) {
            request = request.command(Command.resume(body.resume()));
        } else {
            Update input = Update.of(AgentState.MESSAGES, (ChatMessage) UserMessage.of(body.message()));
            if (body.user_id() != null && !body.user_id().isBlank()) {
                input = input.set(AgentState.USER_ID, body.user_id());
            }
            request = request.input(input);
        }
        return agent.stream(request).map(RunEventJson::of);
    }

    @GET
    @Path("/state")
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Map<String, Object>> state(@PathParam("threadId") String threadId) {
        return agent.state(threadId).map(s -> s.map(snap -> Map.<String, Object>of(
                "checkpoint_id", snap.checkpointId(),
                "step", snap.step(),
                "next", snap.next(),
                "interrupts", snap.interrupts(),
                "values", StateJson.of(snap.values())))
                .orElseThrow(() -> new NotFoundException("thread " + threadId + " does not exist")));
    }
}
