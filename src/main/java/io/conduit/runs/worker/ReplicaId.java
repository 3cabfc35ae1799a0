package io.conduit.runs.worker;

import io.conduit.runs.Worker;
import io.quarkus.runtime.LaunchMode;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * This replica's stable id (see {@link Worker}): its host name and HTTP port. A restarted process gets the same id
 * (the same pod in Kubernetes, the same host and port elsewhere), and two live processes never share one: no two
 * listen on one port of one host. Not configurable on purpose: a shared id would let one replica's start take the
 * runs of another that is alive.
 */
public final class ReplicaId {

    private ReplicaId() {
    }

    public static String ofThisProcess() {
        Config config = ConfigProvider.getConfig();
        int port = LaunchMode.current() == LaunchMode.TEST
                ? config.getOptionalValue("quarkus.http.test-port", Integer.class).orElse(8081)
                : config.getOptionalValue("quarkus.http.port", Integer.class).orElse(8080);
        // port 0 is a random port: every such process would share "host:0", so it gets an id of its own (no former self)
        return host() + ":" + (port == 0 ? "0-" + java.util.UUID.randomUUID() : Integer.toString(port));
    }

    private static String host() {
        String env = System.getenv("HOSTNAME"); // set by Kubernetes and container runtimes to the pod's name
        if (env != null && !env.isBlank()) {
            return env.trim();
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
