package io.crater.sim.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Real servers on this host that serve simulated pods' ports instead of the built-in stand-in apps, from the
 * setting {@code crater.sim.port-backends} / {@code CRATER_SIM_PORT_BACKENDS}: a comma-separated list of
 * {@code <selector>:<port>=<loopback>:<port>}, where the selector is {@code pod/<name>} (one pod) or
 * {@code kind/<kind>} (every pod whose {@code crater.io/kind} label has that value) and the target is
 * {@code 127.0.0.1:<port>} or {@code [::1]:<port>}. A pod rule wins over a kind rule; among rules of one sort the
 * first written wins. Off (empty) by default.
 *
 * <p>The targets are the operator's, written where Crater starts, never read from a pod, and only ever on this
 * host's loopback: no setting can make the simulated cluster connect anywhere else.
 *
 * @param rules in the order written
 */
public record PortBackends(List<Rule> rules) {

    /** Which pods a rule is for. */
    enum Selector {
        POD,
        KIND
    }

    /** One {@code <selector>:<port>=<target>}. */
    record Rule(Selector selector, String value, int port, InetSocketAddress target) {}

    public static final PortBackends NONE = new PortBackends(List.of());

    private static final String FORM = "<selector>:<port>=127.0.0.1:<port> (selector pod/<name> or kind/<kind>)";
    private static final Pattern RULE = Pattern.compile(
            "(pod|kind)/([a-z0-9]([a-z0-9.-]*[a-z0-9])?):([0-9]{1,5})=(127\\.0\\.0\\.1|\\[::1]):([0-9]{1,5})");
    private static final Pattern SHAPE = Pattern.compile("([^:=]*):([^=]*)=(.*):([^:\\]]*)");

    public PortBackends {
        rules = List.copyOf(rules);
    }

    /**
     * Reads the setting (null or blank: none).
     *
     * @throws IllegalArgumentException naming the rule that is not of the form, or whose target is not loopback
     */
    public static PortBackends parse(String setting) {
        if (setting == null || setting.isBlank()) {
            return NONE;
        }
        List<Rule> rules = new ArrayList<>();
        for (String written : setting.split(",", -1)) {
            rules.add(rule(written.trim()));
        }
        return new PortBackends(rules);
    }

    private static Rule rule(String written) {
        Matcher m = RULE.matcher(written);
        if (!m.matches()) {
            Matcher shape = SHAPE.matcher(written);
            if (shape.matches()
                    && !shape.group(3).equals("127.0.0.1")
                    && !shape.group(3).equals("[::1]")) {
                throw new IllegalArgumentException("crater.sim.port-backends: '" + written
                        + "' forwards to " + shape.group(3)
                        + ": a simulated pod's port can only be served from this host's loopback, 127.0.0.1 or [::1]");
            }
            throw new IllegalArgumentException(
                    "crater.sim.port-backends: '" + written + "' is not of the form " + FORM);
        }
        Selector selector = m.group(1).equals("pod") ? Selector.POD : Selector.KIND;
        int port = port(written, m.group(4));
        int targetPort = port(written, m.group(6));
        String host = m.group(5).equals("[::1]") ? "::1" : m.group(5);
        try {
            return new Rule(selector, m.group(2), port, new InetSocketAddress(InetAddress.getByName(host), targetPort));
        } catch (UnknownHostException e) {
            throw new IllegalStateException("a loopback literal did not parse: " + host, e);
        }
    }

    private static int port(String written, String digits) {
        int port = Integer.parseInt(digits);
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(
                    "crater.sim.port-backends: '" + written + "' names port " + port + ", not one in 1-65535");
        }
        return port;
    }

    /** The server that serves this port of this pod, or null when no rule is for it. */
    InetSocketAddress target(JsonNode pod, int port) {
        String name = pod.path("metadata").path("name").asText();
        String kind = pod.path("metadata").path("labels").path(SimLabels.KIND).asText("");
        InetSocketAddress byKind = null;
        for (Rule r : rules) {
            if (r.port() != port) {
                continue;
            }
            if (r.selector() == Selector.POD && r.value().equals(name)) {
                return r.target();
            }
            if (r.selector() == Selector.KIND && byKind == null && r.value().equals(kind)) {
                byKind = r.target();
            }
        }
        return byKind;
    }
}
