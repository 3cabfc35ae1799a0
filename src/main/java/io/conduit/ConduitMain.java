package io.conduit;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * The service's entry point (the packaged jar, the container and dev mode). It only turns off Mutiny's callback
 * decorators before Quarkus boots: they wrap every callback of every Uni and Multi to carry CDI request and JTA
 * contexts across threads, which Conduit never relies on (no request-scoped beans or transactions in its pipelines),
 * and they cost a sixth of the server's CPU under load (docs/benchmarks.md). Mutiny reads the switch once, when it is
 * first loaded, so it must be set here, not in application.properties. The tests set it the same way (pom.xml).
 */
@QuarkusMain
public final class ConduitMain {

    static final String NO_CALLBACK_DECORATORS = "mutiny.disableCallBackDecorators";

    private ConduitMain() {
    }

    public static void main(String... args) {
        System.setProperty(NO_CALLBACK_DECORATORS, System.getProperty(NO_CALLBACK_DECORATORS, "true"));
        Quarkus.run(args);
    }
}
