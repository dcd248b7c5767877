package io.crater.notify;

import java.time.Duration;
import java.util.List;

/** What is mailed and when a failed mail is tried again. */
final class MailRules {

    private MailRules() {}

    /** Whether notifications of this kind are mailed: an entry names the kind, or ends in {@code *} for a prefix. */
    static boolean mailed(List<String> kinds, String kind) {
        for (String k : kinds) {
            String entry = k.trim();
            if (entry.endsWith("*") ? kind.startsWith(entry.substring(0, entry.length() - 1)) : kind.equals(entry)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The wait after the {@code attempts}-th failed attempt: {@code initial}, doubling per further failure, at most
     * {@code max}.
     */
    static Duration retryAfter(int attempts, Duration initial, Duration max) {
        Duration wait = initial;
        for (int i = 1; i < attempts && wait.compareTo(max) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        return wait.compareTo(max) > 0 ? max : wait;
    }

    /** The subject line of a notification's mail. */
    static String subject(String kind, String message) {
        String what = switch (kind) {
            case "job.idle-warning" -> "your job is idle and will be stopped";
            case "job.idle-reclaimed" -> "your idle job was stopped";
            case "job.reclaimed" -> "your job is being stopped to free capacity";
            case "job.time-limit" -> "your job reaches its time limit soon";
            default -> firstSentence(message);
        };
        return "[Crater] " + what;
    }

    private static String firstSentence(String message) {
        int end = message.indexOf(". ");
        String s = end < 0 ? message : message.substring(0, end);
        return s.length() <= 100 ? s : s.substring(0, 99) + "…";
    }

    /** The body of a notification's mail: the message, then where to see it in the console. */
    static String body(String displayName, String message, String consoleUrl, String link) {
        StringBuilder b = new StringBuilder();
        b.append("Hello ").append(displayName).append(",\n\n").append(message).append("\n");
        if (consoleUrl != null && link != null && !link.isEmpty()) {
            b.append("\n").append(consoleUrl.replaceAll("/+$", "")).append(link).append("\n");
        }
        b.append("\n-- \nCrater. You get this mail because of your notifications in the console.\n");
        return b.toString();
    }
}
