package io.crater.cli;

import static io.crater.cli.ReasonFigures.amount;
import static io.crater.cli.ReasonFigures.has;
import static io.crater.cli.ReasonFigures.head;
import static io.crater.cli.ReasonFigures.js;
import static io.crater.cli.ReasonFigures.jsNumber;
import static io.crater.cli.ReasonFigures.money;
import static io.crater.cli.ReasonFigures.num;
import static io.crater.cli.ReasonFigures.period;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Admission reasons and suggestions in words from their code, numbers and args, as the console words them
 * (src/main/webui/src/features/jobs/reasons.ts {@code formatReason}, waitText.ts {@code suggestionText}) with the
 * console's own templates ({@code jobs.reason.*}, {@code jobs.wait.*} of its zh-CN.json, bundled in the client).
 * Milli-units become display units (cpu in cores, memory in GiB), durations their two largest units; an
 * accelerator model is named by its key. A known code missing a figure, or an unknown code, answers null: the
 * caller then prints the server's English sentence, as the console does.
 */
final class Reasons {

    private static final String BUNDLE = "/io/crater/cli/i18n/zh-CN.json";
    private static volatile Reasons chinese;

    private final Function<String, String> templates;

    /** {@code templates} answers the i18next pattern of a dotted key ({@code jobs.reason.GangWaiting}), or null. */
    Reasons(Function<String, String> templates) {
        this.templates = templates;
    }

    /** The console's Chinese templates, read on first use only. */
    static Reasons chinese() {
        Reasons r = chinese;
        if (r == null) {
            Object root = load();
            r = new Reasons(key -> Values.at(root, key) instanceof String s ? s : null);
            chinese = r;
        }
        return r;
    }

    private static Object load() {
        try (InputStream in = Reasons.class.getResourceAsStream(BUNDLE)) {
            if (in == null) {
                throw new IllegalStateException("no " + BUNDLE + " in the client");
            }
            return Json.parse(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One reason in words, or null when it needs the server's sentence. */
    String reason(Map<?, ?> reason, Instant now) {
        Map<?, ?> n = reason.get("numbers") instanceof Map<?, ?> m ? m : Map.of();
        Map<?, ?> a = reason.get("args") instanceof Map<?, ?> m ? m : Map.of();
        String message = Values.str(reason.get("message"));
        String key = resource(a, Values.str(reason.get("resource")), message == null ? "" : message);
        String code = Values.str(reason.get("code"));
        if (code == null) {
            return null;
        }
        return switch (code) {
            case "AccountQuotaExceeded", "MemberLimitReached" -> quota(code, n, key);
            case "PodLargerThanAnyNode" ->
                key != null && has(n, "requested", "largestNode")
                        ? t(
                                "PodLargerThanAnyNode",
                                "resource",
                                label(key),
                                "requested",
                                amount(key, n, "requested"),
                                "largest",
                                amount(key, n, "largestNode"))
                        : null;
            case "LargerThanFleet" ->
                key != null && has(n, "requested", "fleet")
                        ? t(
                                "LargerThanFleet",
                                "resource",
                                label(key),
                                "requested",
                                amount(key, n, "requested"),
                                "fleet",
                                amount(key, n, "fleet"))
                        : null;
            case "InsufficientCapacity", "Unschedulable" -> capacity(n);
            case "Fragmentation" -> fragmentation(n, key);
            case "CapacityHeldForOlderJob" ->
                has(n, "waitedSeconds", "toleranceSeconds")
                        ? t(
                                "CapacityHeldForOlderJob",
                                "waited",
                                duration(num(n, "waitedSeconds")),
                                "tolerance",
                                duration(num(n, "toleranceSeconds")))
                        : null;
            case "CreatingObjects", "VolcanoQueueFull", "InvalidSpec" -> t(code);
            case "GangWaiting" ->
                has(n, "placed", "total")
                        ? t("GangWaiting", "placed", js(num(n, "placed")), "total", js(num(n, "total")))
                        : null;
            case "ImagePulling", "ImagePullFailed", "VolumeMountFailed", "NodeNotReady" ->
                pod(code, n, a, message, now);
            case "WaitsForJobsWithoutTimeLimit" -> has(n, "jobs") ? t(code, "count", js(num(n, "jobs"))) : null;
            case "CannotStartOnIdleCluster" -> idle(n, a, now);
            default -> other(code, n, a);
        };
    }

    private String other(String code, Map<?, ?> n, Map<?, ?> a) {
        String periodEnds = a.get("periodEnds") instanceof String s ? period(s) : null;
        return switch (code) {
            case "AccountExpired" ->
                a.get("account") != null && a.get("expiredAt") instanceof String at
                        ? t(code, "account", Values.str(a.get("account")), "at", head(at, 10))
                        : null;
            case "ModelNotApproved" -> a.get("model") != null ? t(code, "model", Values.str(a.get("model"))) : null;
            case "WaitsForBudget" -> periodEnds != null ? t(code, "periodEnds", periodEnds) : null;
            case "BudgetExhausted" ->
                has(n, "remainingMicros", "projectedMicros") && a.get("currency") != null && periodEnds != null
                        ? t(
                                code,
                                "projected",
                                money(((Number) n.get("projectedMicros")).longValue()),
                                "remaining",
                                money(((Number) n.get("remainingMicros")).longValue()),
                                "currency",
                                Values.str(a.get("currency")),
                                "periodEnds",
                                periodEnds)
                        : null;
            case "WaitsForAllotment" -> periodEnds != null ? t(code, "periodEnds", periodEnds) : null;
            case "AllotmentExhausted" ->
                has(n, "remainingMicros", "projectedMicros", "allotmentMicros")
                                && a.get("currency") != null
                                && periodEnds != null
                        ? t(
                                code,
                                "projected",
                                money(((Number) n.get("projectedMicros")).longValue()),
                                "remaining",
                                money(((Number) n.get("remainingMicros")).longValue()),
                                "allotment",
                                money(((Number) n.get("allotmentMicros")).longValue()),
                                "currency",
                                Values.str(a.get("currency")),
                                "periodEnds",
                                periodEnds)
                        : null;
            case "TooManyJobsAhead" ->
                has(n, "jobsAhead", "decisions")
                        ? t(code, "jobsAhead", js(num(n, "jobsAhead")), "decisions", js(num(n, "decisions")))
                        : null;
            case "BeyondHorizon" -> has(n, "horizonDays") ? t(code, "count", js(num(n, "horizonDays"))) : null;
            default -> null;
        };
    }

    private String quota(String code, Map<?, ?> n, String key) {
        boolean account = code.equals("AccountQuotaExceeded");
        String max = account ? "effectiveMax" : "limit";
        if (key != null && has(n, "requested", "used", max)) {
            String total = amount(key, num(n, "requested") + num(n, "used"));
            String used = amount(key, n, "used");
            String requested = amount(key, n, "requested");
            if (!account) {
                return t(
                        code,
                        "resource",
                        label(key),
                        "total",
                        total,
                        "limit",
                        amount(key, n, max),
                        "used",
                        used,
                        "requested",
                        requested);
            }
            return t(
                    num(n, "granted") > 0 ? "AccountQuotaExceededGranted" : code,
                    "resource",
                    label(key),
                    "total",
                    total,
                    "max",
                    amount(key, n, max),
                    "used",
                    used,
                    "requested",
                    requested,
                    "granted",
                    amount(key, n, "granted"));
        }
        if (!account && has(n, "jobs", "limit")) {
            return t("MemberJobLimit", "jobs", js(num(n, "jobs")), "limit", js(num(n, "limit")));
        }
        if (!account && has(n, "sessions", "limit")) {
            return t("MemberSessionLimit", "sessions", js(num(n, "sessions")), "limit", js(num(n, "limit")));
        }
        return null;
    }

    private String capacity(Map<?, ?> n) {
        if (!has(n, "placed", "pods", "nodes")) {
            return null;
        }
        List<String> short_ = n.entrySet().stream()
                .filter(e -> String.valueOf(e.getKey()).startsWith("insufficient."))
                .sorted((x, y) -> String.valueOf(x.getKey()).compareTo(String.valueOf(y.getKey())))
                .map(e -> t(
                        "shortOn",
                        "resource",
                        label(String.valueOf(e.getKey()).substring("insufficient.".length())),
                        "count",
                        js(((Number) e.getValue()).doubleValue())))
                .toList();
        Object[] values = {
            "placed",
            js(num(n, "placed")),
            "pods",
            js(num(n, "pods")),
            "nodes",
            js(num(n, "nodes")),
            "short",
            String.join(", ", short_)
        };
        return t(short_.isEmpty() ? "InsufficientCapacity" : "InsufficientCapacityShort", values);
    }

    private String fragmentation(Map<?, ?> n, String key) {
        if (!has(n, "largestFreeBlock", "needs", "totalFree")) {
            return null;
        }
        String largest = amount(key, n, "largestFreeBlock");
        return t(
                "Fragmentation",
                "count",
                largest,
                "resource",
                key == null ? "" : label(key),
                "largest",
                largest,
                "needs",
                amount(key, n, "needs"),
                "total",
                amount(key, n, "totalFree"));
    }

    private String pod(String code, Map<?, ?> n, Map<?, ?> a, String message, Instant now) {
        String text = message == null ? "" : message;
        switch (code) {
            case "ImagePulling": {
                if (!has(n, "sinceEpochSeconds")) {
                    return null;
                }
                String image = a.get("image") != null ? Values.str(a.get("image")) : group(text, PULLING, 1);
                String d = duration(now.toEpochMilli() / 1000.0 - num(n, "sinceEpochSeconds"));
                return image != null ? t(code, "image", image, "duration", d) : t("ImagePullingAny", "duration", d);
            }
            case "ImagePullFailed": {
                if (a.get("image") != null && a.get("detail") != null) {
                    return t(code, "image", Values.str(a.get("image")), "detail", Values.str(a.get("detail")));
                }
                Matcher m = PULL_FAILED.matcher(text);
                return m.find() && !m.group(1).isEmpty() && !m.group(2).isEmpty()
                        ? t(code, "image", m.group(1), "detail", m.group(2).strip())
                        : t("ImagePullFailedAny");
            }
            case "VolumeMountFailed": {
                String detail = (a.get("detail") != null ? Values.str(a.get("detail")) : text).strip();
                return !detail.isEmpty() ? t(code, "detail", detail) : t("VolumeMountFailedAny");
            }
            default: {
                if (a.get("pod") != null && a.get("node") != null) {
                    return t(code, "pod", Values.str(a.get("pod")), "node", Values.str(a.get("node")));
                }
                Matcher m = NOT_READY.matcher(text);
                return m.find() ? t(code, "pod", m.group(1), "node", m.group(2)) : t("NodeNotReadyAny");
            }
        }
    }

    /** The reason in the way once every running job ended (args.cause), when it can be worded. */
    private String idle(Map<?, ?> n, Map<?, ?> a, Instant now) {
        Object cause = a.get("cause");
        if (cause instanceof String c && !c.equals("CannotStartOnIdleCluster")) {
            Map<Object, Object> rest = new LinkedHashMap<>(a);
            rest.remove("cause");
            Map<String, Object> inner = new LinkedHashMap<>();
            inner.put("code", c);
            inner.put("message", "");
            inner.put("numbers", n);
            inner.put("args", rest);
            String words = reason(inner, now);
            if (words != null) {
                return t("CannotStartBecause", "cause", words);
            }
        }
        return t("CannotStartOnIdleCluster");
    }

    /** One suggestion in words, or null when it needs the server's sentence. */
    String suggestion(Map<?, ?> s) {
        Map<?, ?> n = s.get("numbers") instanceof Map<?, ?> m ? m : Map.of();
        Map<?, ?> change = s.get("change") instanceof Map<?, ?> m ? m : Map.of();
        String code = Values.str(s.get("code"));
        if (code == null) {
            return null;
        }
        switch (code) {
            case "FewerAccelerators": {
                Object c = change.get("resources.accelerators");
                double count = c == null ? Double.NaN : jsNumber(c);
                return count > 0 && Double.isFinite(count) && n.get("requested") instanceof Number
                        ? w(
                                "jobs.wait.suggestion.FewerAccelerators",
                                "count",
                                js(count),
                                "requested",
                                js(num(n, "requested")))
                        : null;
            }
            case "OtherModel":
                return change.get("resources.acceleratorModel") != null && n.get("accelerators") instanceof Number
                        ? w(
                                "jobs.wait.suggestion.OtherModel",
                                "count",
                                js(num(n, "accelerators")),
                                "model",
                                Values.str(change.get("resources.acceleratorModel")))
                        : null;
            case "RunAsBackfill":
                return w("jobs.wait.suggestion.RunAsBackfill");
            case "RequestGrant": {
                String resource = Values.str(change.get("resource"));
                Object amount = change.get("amount");
                return resource != null && !resource.isEmpty() && amount != null
                        ? w("jobs.wait.suggestion.RequestGrant", "amount", Values.str(amount), "resource", resource)
                        : null;
            }
            default:
                return null;
        }
    }

    private static final Pattern OF = Pattern.compile("\\bwould use \\S+ of (\\S+)");
    private static final Pattern ASKS = Pattern.compile("\\basks for \\S+ (\\S+)");
    private static final Pattern ENOUGH = Pattern.compile("\\benough (\\S+) is free\\b");
    private static final Pattern PULLING = Pattern.compile("\\bpulling image (\\S+)");
    private static final Pattern PULL_FAILED = Pattern.compile("^image (\\S+) cannot be pulled: ([\\s\\S]+)$");
    private static final Pattern NOT_READY = Pattern.compile("\\bpod (\\S+) is on node (\\S+?),? which is not ready");

    /** The resource a reason is about: args.resource, its resource field, else the name its sentence quotes. */
    static String resource(Map<?, ?> args, String field, String message) {
        if (args.get("resource") instanceof String s && !s.isEmpty()) {
            return s;
        }
        if (field != null && !field.isEmpty()) {
            return field;
        }
        for (Pattern p : List.of(OF, ASKS, ENOUGH)) {
            String g = group(message, p, 1);
            if (g != null) {
                return g;
            }
        }
        return null;
    }

    private static String group(String text, Pattern p, int group) {
        Matcher m = p.matcher(text);
        return m.find() && !m.group(group).isEmpty() ? m.group(group) : null;
    }

    private String label(String resource) {
        return switch (resource) {
            case "cpu" -> w("resources.cpu");
            case "memory" -> w("resources.memory");
            default -> resource;
        };
    }

    /** A duration by its two largest units, to the nearest minute: 7140 → "1 小时 59 分钟". */
    String duration(double seconds) {
        long minutes = Double.isFinite(seconds) ? Math.round(seconds / 60) : 0;
        if (minutes <= 0) {
            return w("jobs.wait.duration.underMinute");
        }
        long days = minutes / 1440;
        long hours = (minutes % 1440) / 60;
        long mins = minutes % 60;
        StringBuilder b = new StringBuilder();
        if (days > 0) {
            b.append(w("jobs.wait.duration.day", "count", js(days)));
            if (hours > 0) {
                b.append(' ').append(w("jobs.wait.duration.hour", "count", js(hours)));
            }
        } else if (hours > 0) {
            b.append(w("jobs.wait.duration.hour", "count", js(hours)));
            if (mins > 0) {
                b.append(' ').append(w("jobs.wait.duration.minute", "count", js(mins)));
            }
        } else {
            b.append(w("jobs.wait.duration.minute", "count", js(mins)));
        }
        return b.toString();
    }

    private String t(String code, Object... values) {
        return w("jobs.reason." + code, values);
    }

    /**
     * The template of {@code key} with its {@code {{name}}} values filled in (a value named count picks the
     * {@code _other} form first, as i18next does for Chinese); a template the bundle lacks is an error.
     */
    private String w(String key, Object... values) {
        Map<String, String> v = new LinkedHashMap<>();
        for (int i = 0; i + 1 < values.length; i += 2) {
            v.put((String) values[i], String.valueOf(values[i + 1]));
        }
        String pattern = v.containsKey("count") ? templates.apply(key + "_other") : null;
        if (pattern == null) {
            pattern = templates.apply(key);
        }
        if (pattern == null) {
            throw new IllegalStateException("no template " + key);
        }
        Matcher m = Pattern.compile("\\{\\{\\s*(\\w+)\\s*}}").matcher(pattern);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String value = v.get(m.group(1));
            m.appendReplacement(b, Matcher.quoteReplacement(value == null ? m.group() : value));
        }
        m.appendTail(b);
        return b.toString();
    }
}
