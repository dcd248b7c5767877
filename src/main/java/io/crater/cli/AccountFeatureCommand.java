package io.crater.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** What an account's members may use and the bandwidth caps of its pods: shown to members, set by platform admins. */
@Command(
        name = "features",
        description = "Show the job kinds and features an account may use and its bandwidth caps; with options, set"
                + " them (platform admins).")
final class AccountFeatureCommand extends Verb {

    @Parameters(paramLabel = "ACCOUNT", description = "The account's slug.")
    String slug;

    @Option(
            names = "--on",
            paramLabel = "FEATURE",
            split = ",",
            description = "Turn features on (jupyter, webide, custom, pytorch, inference, ssh, high-priority).")
    List<String> on = new ArrayList<>();

    @Option(names = "--off", paramLabel = "FEATURE", split = ",", description = "Turn features off.")
    List<String> off = new ArrayList<>();

    @Option(
            names = "--default",
            paramLabel = "FEATURE",
            split = ",",
            description = "Let features follow the platform's default again.")
    List<String> reset = new ArrayList<>();

    @Option(
            names = "--ingress",
            paramLabel = "RATE",
            description = "Ingress cap in bits per second (100M, 1G), none for no cap, default for the platform's.")
    String ingress;

    @Option(names = "--egress", paramLabel = "RATE", description = "Egress cap, likewise.")
    String egress;

    @Override
    protected int execute() {
        String path = AdminAccountCommands.path(slug) + "/features";
        Object current = api().get(path);
        if (on.isEmpty() && off.isEmpty() && reset.isEmpty() && ingress == null && egress == null) {
            show(current);
            return Exit.OK;
        }
        Map<String, Object> features = new LinkedHashMap<>();
        Object own = Values.at(current, "features");
        if (own instanceof Map<?, ?> m) {
            m.forEach((k, v) -> features.put(String.valueOf(k), v));
        }
        on.forEach(f -> features.put(f.trim(), Boolean.TRUE));
        off.forEach(f -> features.put(f.trim(), Boolean.FALSE));
        reset.forEach(f -> features.remove(f.trim()));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("features", features);
        body.put("ingressBandwidth", cap(ingress, Values.at(current, "ingressBandwidth")));
        body.put("egressBandwidth", cap(egress, Values.at(current, "egressBandwidth")));
        show(api().put(path, body));
        return Exit.OK;
    }

    /** The cap to send: the one given ({@code default}: the platform's, sent as null), else the account's own. */
    private static Object cap(String given, Object own) {
        if (given == null) {
            return own;
        }
        return "default".equals(given.trim()) ? null : given.trim();
    }

    private void show(Object f) {
        if (!output().human()) {
            output().object(f);
            return;
        }
        Messages m = msg();
        Object effective = Values.at(f, "effective");
        Object switches = Values.at(effective, "features");
        Object own = Values.at(f, "features");
        List<Object> rows = new ArrayList<>();
        if (switches instanceof Map<?, ?> s) {
            s.forEach((k, v) -> rows.add(Map.of(
                    "feature",
                    String.valueOf(k),
                    "state",
                    Boolean.TRUE.equals(v) ? "on" : "off",
                    "source",
                    own instanceof Map<?, ?> o && o.containsKey(k)
                            ? m.get("features.own")
                            : m.get("features.platform"))));
        }
        for (String field : List.of("ingressBandwidth", "egressBandwidth")) {
            Object value = Values.at(effective, field);
            rows.add(Map.of(
                    "feature", field.equals("ingressBandwidth") ? "ingress" : "egress",
                    "state", value == null ? m.get("features.noCap") : String.valueOf(value),
                    "source", Values.at(f, field) != null ? m.get("features.own") : m.get("features.platform")));
        }
        output().list(
                        List.of(rows).iterator(),
                        List.of(
                                Output.Column.path(m.get("col.feature"), "feature"),
                                Output.Column.state(m.get("col.state"), o -> Values.text(o, "state")),
                                Output.Column.path(m.get("col.source"), "source")),
                        o -> Values.text(o, "feature"));
    }
}
