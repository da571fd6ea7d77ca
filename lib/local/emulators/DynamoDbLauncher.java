import java.lang.reflect.Field;
import org.eclipse.jetty.server.AbstractNetworkConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * Starts DynamoDB Local on 127.0.0.1 only.
 *
 * The jar's own main() binds every interface and has no host flag, so this builds the server
 * through the same ServerRunner factory (same flags, same telemetry switch) and moves the Jetty
 * connector to loopback before it starts. Run with Java's single-file source mode:
 *   java -cp DynamoDBLocal.jar:DynamoDBLocal_lib/* DynamoDbLauncher.java -port 0 -inMemory ...
 *
 * It exits when stdin reaches EOF: the Node parent holds the other end of that pipe, and the
 * kernel closes it however the parent dies (even SIGKILL), so no JVM outlives its owner.
 *
 * Every way out (SIGTERM, SIGINT, stdin EOF) goes through the shutdown hook, which waits for the
 * database to finish its queued work. That matters: DynamoDB Local answers TransactWriteItems
 * before its COMMIT has run (SQLiteDBAccess.commitTransaction queues the COMMIT on the sqlite4java
 * job queue and returns without waiting), and proxy.stop() only asks that queue to stop
 * gracefully, without waiting either. Without the wait, an exit right after an acknowledgement
 * can halt the JVM in the middle of that COMMIT, and SQLite rolls it back on the next open.
 */
public class DynamoDbLauncher {
  private static final String HOST = "127.0.0.1";
  /** sqlite4java names each job queue's thread after the queue: "SQLiteQueue[file]". */
  private static final String QUEUE_THREAD_PREFIX = "SQLiteQueue";
  /** How long the shutdown hook waits for queued database work before letting the JVM halt. */
  private static final long FLUSH_TIMEOUT_MS = 10_000;

  public static void main(String[] args) throws Exception {
    exitWhenStdinCloses();

    // The jar rejects "-port 0", but Jetty binds an ephemeral port when told 0: parse with a
    // placeholder and set 0 on the connector, so the caller never races for a "free" port.
    boolean ephemeral = takesEphemeralPort(args);
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Server jetty = jettyOf(proxy);
    Connector[] connectors = jetty.getConnectors();
    if (connectors.length == 0) {
      fail("DynamoDB Local created no connector");
    }
    for (Connector connector : connectors) {
      if (!(connector instanceof AbstractNetworkConnector network)) {
        fail("unexpected connector type " + connector.getClass().getName());
        return;
      }
      network.setHost(HOST);
      if (ephemeral) {
        network.setPort(0);
      }
    }

    Runtime.getRuntime().addShutdownHook(new Thread(() -> stopQuietly(proxy)));

    // DynamoDBProxyServer.start() swallows bind errors (prints them and stops), so check after.
    proxy.start();
    if (!jetty.isStarted()) {
      fail("DynamoDB Local did not start (see the message above)");
    }
    int port = ((AbstractNetworkConnector) connectors[0]).getLocalPort();
    // The Node side reads this line to learn the port when it asked for port 0.
    System.out.println("DynamoDbLauncher listening on " + HOST + ":" + port);
    System.out.flush();
    proxy.join();
  }

  /** Replaces the value of "-port 0" with a placeholder in place; true if it did. */
  private static boolean takesEphemeralPort(String[] args) {
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals("-port") && args[i + 1].equals("0")) {
        args[i + 1] = "8000";
        return true;
      }
    }
    return false;
  }

  private static Server jettyOf(DynamoDBProxyServer proxy) throws ReflectiveOperationException {
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    return (Server) field.get(proxy);
  }

  private static void exitWhenStdinCloses() {
    Thread watcher =
        new Thread(
            () -> {
              try {
                byte[] buffer = new byte[256];
                while (System.in.read(buffer) != -1) {
                  // Input is ignored; only EOF matters.
                }
              } catch (Exception ignored) {
                // A broken pipe means the parent is gone too.
              }
              System.exit(0);
            },
            "stdin-watcher");
    watcher.setDaemon(true);
    watcher.start();
  }

  /**
   * Stops Jetty, then closes the database (which asks each SQLite job queue to run what it holds
   * and stop), then waits for those queue threads to end, so every acknowledged write is
   * committed before the JVM halts.
   */
  private static void stopQuietly(DynamoDBProxyServer proxy) {
    try {
      proxy.stop();
    } catch (Exception ignored) {
      // The JVM is exiting anyway; still wait for the queues below.
    }
    long deadline = System.currentTimeMillis() + FLUSH_TIMEOUT_MS;
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (!thread.getName().startsWith(QUEUE_THREAD_PREFIX)) {
        continue;
      }
      try {
        thread.join(Math.max(1, deadline - System.currentTimeMillis()));
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        return;
      }
      if (thread.isAlive()) {
        System.err.println(
            "DynamoDbLauncher: " + thread.getName() + " still busy after " + FLUSH_TIMEOUT_MS
                + " ms; exiting anyway");
      }
    }
  }

  private static void fail(String message) {
    System.err.println("DynamoDbLauncher: " + message);
    System.exit(1);
  }
}
