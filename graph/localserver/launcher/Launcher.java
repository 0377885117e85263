package org.scholargraph.neo4j;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.BoltConnectorInternalSettings;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.QueryExecutionException;
import org.neo4j.io.ByteUnit;

/**
 * Runs Neo4j Community as a server process with only the Bolt connector, bound to loopback.
 *
 * <p>Arguments: {@code --home DIR --bolt-port N [--bolt-host 127.0.0.1] [--pagecache 512m]
 * [--auth true|false] [--tx-timeout-seconds N] [--tx-log-retention "1G size"]}. The password
 * for the {@code neo4j} user comes from the environment variable {@code NEO4J_PASSWORD} so it
 * never shows in a process list.
 *
 * <p>Prints {@code READY bolt://host:port} once Bolt accepts connections, and exits with code 3
 * when the store is locked by another process, 4 when the port is taken, 1 on other failures.
 */
public final class Launcher {
  private Launcher() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = parse(args);
    Path home = Path.of(require(opts, "home")).toAbsolutePath();
    String host = opts.getOrDefault("bolt-host", "127.0.0.1");
    int port = Integer.parseInt(require(opts, "bolt-port"));
    boolean auth = Boolean.parseBoolean(opts.getOrDefault("auth", "true"));
    long pageCache = ByteUnit.parse(opts.getOrDefault("pagecache", "512m"));
    long txTimeout = Long.parseLong(opts.getOrDefault("tx-timeout-seconds", "0"));
    // Transaction logs kept after a checkpoint: Neo4j keeps two days of them, which after a
    // large load is three times the store on disk (no backup or cluster reads them here).
    String txLogs = opts.getOrDefault("tx-log-retention", "1G size");

    Files.createDirectories(home);
    DatabaseManagementService dbms;
    try {
      var builder =
          new DatabaseManagementServiceBuilder(home)
              .setConfig(BoltConnector.enabled, true)
              .setConfig(BoltConnector.listen_address, new SocketAddress(host, port))
              .setConfig(BoltConnector.advertised_address, new SocketAddress(host, port))
              .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
              .setConfig(HttpConnector.enabled, false)
              .setConfig(GraphDatabaseSettings.pagecache_memory, pageCache)
              .setConfig(GraphDatabaseSettings.auth_enabled, auth)
              .setConfig(GraphDatabaseSettings.udc_enabled, false)
              .setConfig(GraphDatabaseSettings.keep_logical_logs, txLogs)
              // Keep-alive NOOPs while a result streams, not on every request: for ALL, the
              // server hints drivers to time out each read, and the Python driver then wraps
              // every socket read in a timer task, which triples the cost of a result's rows.
              .setConfig(
                  BoltConnector.connection_keep_alive_type,
                  BoltConnector.KeepAliveRequestType.STREAMING)
              // Connections are on loopback; waiting the default 15 s for them on shutdown
              // only slows `neo4j stop` and test teardown.
              .setConfig(
                  BoltConnectorInternalSettings.connection_shutdown_wait_time, Duration.ofSeconds(1))
              .setConfig(
                  BoltConnectorInternalSettings.thread_pool_shutdown_wait_time,
                  Duration.ofSeconds(1));
      if (txTimeout > 0) {
        builder.setConfig(GraphDatabaseSettings.transaction_timeout, Duration.ofSeconds(txTimeout));
      }
      dbms = builder.build();
    } catch (Throwable e) {
      exitFor(e);
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(dbms::shutdown, "neo4j-shutdown"));
    if (auth) {
      try {
        setPassword(dbms);
      } catch (Throwable e) {
        dbms.shutdown();
        exitFor(e);
        return;
      }
    }
    System.out.println("READY bolt://" + host + ":" + port);
    System.out.flush();
    new CountDownLatch(1).await();
  }

  private static void setPassword(DatabaseManagementService dbms) {
    String password = System.getenv("NEO4J_PASSWORD");
    if (password == null || password.isEmpty()) {
      return;
    }
    try {
      dbms.database("system")
          .executeTransactionally(
              "ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED",
              Map.of("password", password));
    } catch (QueryExecutionException e) {
      // A store started before already has this password: nothing to change.
      if (!String.valueOf(e.getMessage()).contains("Old password and new password cannot be the same")) {
        throw e;
      }
    }
  }

  private static void exitFor(Throwable error) {
    String chain = describe(error);
    if (chain.contains("FileLockException") || chain.contains("Lock file has been locked")) {
      System.err.println("ERROR LOCKED " + chain);
      System.exit(3);
    }
    if (chain.contains("Address already in use") || chain.contains("BindException")) {
      System.err.println("ERROR PORT " + chain);
      System.exit(4);
    }
    System.err.println("ERROR " + chain);
    error.printStackTrace();
    System.exit(1);
  }

  private static String describe(Throwable error) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = error; t != null; t = t.getCause()) {
      text.append(t.getClass().getName()).append(": ").append(t.getMessage()).append(" | ");
    }
    return text.toString();
  }

  private static Map<String, String> parse(String[] args) throws IOException {
    Map<String, String> opts = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IOException("unexpected argument " + args[i]);
      }
      opts.put(args[i].substring(2), args[i + 1]);
    }
    return opts;
  }

  private static String require(Map<String, String> opts, String key) throws IOException {
    String value = opts.get(key);
    if (value == null) {
      throw new IOException("missing --" + key);
    }
    return value;
  }
}
