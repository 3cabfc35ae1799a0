package io.conduit.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.conduit.checkpoint.PendingWrite;
import io.conduit.checkpoint.Stored;
import io.conduit.kernel.JsonCodec;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Where a pause stands ({@link Interrupt.When}) and how an interrupt is kept in a pending write: by the same text as
 * when {@code when} was a String, so writes stored before the enum read back, and new ones are byte for byte alike.
 */
class InterruptWhenTest {

    /** The interrupt record as it was stored before the enum, encoded as the store did: the reference shape. */
    record LegacyInterrupt(String id, Object value, String node, String taskId, String when) {
    }

    private static final JsonCodec<LegacyInterrupt> LEGACY = JsonCodec.of(LegacyInterrupt.class);
    private static final InterruptCodec CODEC = new InterruptCodec();

    private static final Map<String, Interrupt.When> STORED = Map.of(
            "before", Interrupt.When.BEFORE,
            "after", Interrupt.When.AFTER,
            "during", Interrupt.When.DURING);

    @Test
    void everyStoredNameReadsAsItsPositionAndIsWrittenBackTheSame() {
        STORED.forEach((wire, when) -> {
            assertThat(Interrupt.When.of(wire)).as(wire).isSameAs(when);
            assertThat(when.wire()).as(wire).isEqualTo(wire);
        });
        assertThat(Arrays.stream(Interrupt.When.values()).map(Interrupt.When::wire)).containsExactlyInAnyOrderElementsOf(STORED.keySet());
    }

    @Test
    void onlyANodesOwnInterruptIsAnswered() {
        assertThat(Interrupt.When.BEFORE.breakpoint()).isTrue();
        assertThat(Interrupt.When.AFTER.breakpoint()).isTrue();
        assertThat(Interrupt.When.DURING.breakpoint()).isFalse();
    }

    @Test
    void anUnknownNameIsRefusedAndNamed() {
        assertThatThrownBy(() -> Interrupt.When.of("BEFORE")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown interrupt position: BEFORE").hasMessageContaining("[before, after, during]");
    }

    @Test
    void anInterruptIsEncodedExactlyAsBeforeTheEnum() {
        Object payload = Map.of("question", "Approve?");
        for (Interrupt.When when : Interrupt.When.values()) {
            Interrupt i = new Interrupt("task#0", payload, "verifier", "task", when);
            String legacy = LEGACY.encode(new LegacyInterrupt("task#0", payload, "verifier", "task", when.wire()));
            assertThat(CODEC.encode(i)).as("%s", when).isEqualTo(legacy)
                    .isEqualTo("{\"id\":\"task#0\",\"value\":{\"question\":\"Approve?\"},\"node\":\"verifier\",\"taskId\":\"task\",\"when\":\""
                            + when.wire() + "\"}");
        }
        // a missing position is left out, as the null String was
        assertThat(CODEC.encode(new Interrupt("i", "?", "n", "t", null))).isEqualTo(LEGACY.encode(new LegacyInterrupt("i", "?", "n", "t", null)))
                .doesNotContain("when");
    }

    @Test
    void storedInterruptsReadBackWithTheirPosition() {
        STORED.forEach((wire, when) -> {
            Interrupt i = CODEC.decode("{\"id\":\"t#0\",\"value\":[1,\"x\"],\"node\":\"n\",\"taskId\":\"t\",\"when\":\"" + wire + "\"}");
            assertThat(i).isEqualTo(new Interrupt("t#0", List.of(1, "x"), "n", "t", when));
        });
        assertThat(CODEC.decode("{\"id\":\"t#0\",\"value\":\"?\",\"node\":\"n\",\"taskId\":\"t\"}").when()).isNull();
    }

    @Test
    void aStoredBreakpointIsRecognisedAsOne() {
        String json = "{\"id\":\"t#before\",\"value\":{\"node\":\"n\",\"when\":\"before\"},\"node\":\"n\",\"taskId\":\"t\",\"when\":\"before\"}";
        TaskRecord r = TaskRecord.decode(List.of(new PendingWrite("t", "n", -3, PendingWrite.INTERRUPT, Stored.json(json))),
                StateSchema.of(), "thread-1").get("t");
        assertThat(r.breakpoint.when()).isEqualTo(Interrupt.When.BEFORE);
        assertThat(r.breakpoint.answerable()).isFalse();
        assertThat(r.pendingInterrupts()).isEmpty();
    }

    @Test
    void aStoredInterruptWithAnUnknownPositionIsReportedAsCorruptState() {
        String json = "{\"id\":\"t#0\",\"value\":\"?\",\"node\":\"n\",\"taskId\":\"t\",\"when\":\"sideways\"}";
        List<PendingWrite> writes = List.of(new PendingWrite("t", "n", -100, PendingWrite.INTERRUPT, Stored.json(json)));
        assertThatThrownBy(() -> TaskRecord.decode(writes, StateSchema.of(), "thread-1"))
                .isInstanceOfSatisfying(GraphException.class, e -> assertThat(e.code()).isEqualTo(GraphException.Code.STATE_CORRUPTED))
                .hasMessageContaining("thread-1").hasMessageContaining("unknown interrupt position: sideways");
    }

    @Test
    void aLiveInterruptIsHandedBackAsIs() {
        Interrupt i = new Interrupt("t#0", "?", "n", "t", Interrupt.When.DURING);
        assertThat(CODEC.fromLive(i)).isSameAs(i);
        assertThat(CODEC.fromLive(Map.of("id", "t#0", "value", "?", "node", "n", "taskId", "t", "when", "during"))).isEqualTo(i);
    }
}
