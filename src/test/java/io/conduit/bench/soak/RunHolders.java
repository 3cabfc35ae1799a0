package io.conduit.bench.soak;

import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Which replica executed a run, from its worker id in {@code conduit_runs} (it names the replica's port): a run is
 * usually claimed by the replica it was created on, so this tells how many follows really crossed replicas. A few
 * connections of the client's own, named {@code soak-client} so that the sampler leaves them out of the server's count.
 */
final class RunHolders implements AutoCloseable {
    static final String APPLICATION = "soak-client";
    private final BlockingQueue<Connection> pool;

    RunHolders(String jdbcUrl, int connections) throws SQLException {
        pool = new ArrayBlockingQueue<>(connections);
        for (int i = 0; i < connections; i++) {
            pool.add(connect(jdbcUrl));
        }
    }

    static Connection connect(String jdbcUrl) throws SQLException {
        String user = System.getProperty("soak.dbUser", "postgres");
        String password = System.getProperty("soak.dbPassword", "");
        return DriverManager.getConnection(jdbcUrl + (jdbcUrl.contains("?") ? "&" : "?") + "ApplicationName=" + APPLICATION,
                user, password);
    }

    /** Whether the run was executed by a replica other than {@code follower}; false if the database does not say. */
    boolean elsewhere(String runId, String follower) throws InterruptedException, SQLException {
        int port = URI.create(follower).getPort();
        Connection c = pool.take();
        try (PreparedStatement st = c.prepareStatement("SELECT worker_id FROM conduit_runs WHERE run_id = ?")) {
            st.setString(1, runId);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() && rs.getString(1) != null && !rs.getString(1).contains(":" + port + "/");
            }
        } finally {
            pool.add(c);
        }
    }

    @Override
    public void close() {
        pool.forEach(c -> {
            try {
                c.close();
            } catch (SQLException ignored) {
                // the soak is over
            }
        });
    }
}
