package io.crater.notify;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kinds a user chooses channels for, the notification kinds each one covers, and the defaults of a user who has
 * chosen nothing (docs/notifications.md, "Preferences").
 */
public final class NotificationKinds {

    private NotificationKinds() {}

    public static final String IN_APP = "in-app";
    public static final String EMAIL = "email";
    public static final String WEBHOOK = "webhook";

    /** The channels, in the order the console shows them. */
    public static final List<String> CHANNELS = List.of(IN_APP, EMAIL, WEBHOOK);

    /** The kind of the event a webhook's test button sends; no preference covers it. */
    public static final String TEST = "webhook.test";

    /** Each preference kind, in the order the console lists them, with the notification kinds it covers. */
    static final Map<String, List<String>> COVERS = covers();

    /** The preference kinds, in the order the console lists them. */
    public static final List<String> KINDS = List.copyOf(COVERS.keySet());

    private static Map<String, List<String>> covers() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("job.admitted", List.of("job.admitted"));
        m.put("job.started", List.of("job.started"));
        m.put("job.succeeded", List.of("job.succeeded"));
        m.put("job.failed", List.of("job.failed"));
        m.put("job.waiting", List.of("job.waiting"));
        m.put("job.idle-warning", List.of("job.idle-warning"));
        m.put("job.reclaimed", List.of("job.reclaimed", "job.idle-reclaimed", "job.node-drained"));
        m.put("job.time-limit", List.of("job.time-limit"));
        m.put("approval.requested", List.of("approval.requested"));
        m.put("approval.decided", List.of("approval.approved", "approval.rejected"));
        m.put("budget.threshold", List.of("budget.threshold", "allotment.threshold"));
        m.put("node.gpu-quarantined", List.of("node.gpu-quarantined"));
        return java.util.Collections.unmodifiableMap(m);
    }

    /** The preference kind that covers a notification kind; null for one no preference covers (a webhook test). */
    public static String preferenceOf(String kind) {
        for (var e : COVERS.entrySet()) {
            if (e.getValue().contains(kind)) {
                return e.getKey();
            }
        }
        return null;
    }

    /**
     * Whether a channel is on for a preference kind when the user chose nothing: in-app and webhook always (a
     * webhook's own kinds decide what it gets), e-mail for the kinds the operator mails ({@code crater.mail.kinds}).
     */
    public static boolean byDefault(String preferenceKind, String channel, List<String> mailedKinds) {
        if (!EMAIL.equals(channel)) {
            return true;
        }
        return COVERS.getOrDefault(preferenceKind, List.of()).stream().anyMatch(k -> MailRules.mailed(mailedKinds, k));
    }
}
