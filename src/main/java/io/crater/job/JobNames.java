package io.crater.job;

import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Names and labels of everything a job becomes in Kubernetes. Names come from the job's id, never from user
 * input: the public id {@code j7k3f9} gives the Volcano Job {@code c-j7k3f9} (DNS-1035, so the svc plugin's
 * Service and the pod hostnames {@code <job>-<task>-<index>} stay valid). Labels carry ids.
 */
public final class JobNames {

    public static final String JOB_ID = "crater.io/job-id";
    /** What every object name of a job starts with: {@code c-<id>}. */
    public static final String PREFIX = "c-";

    public static final String ACCOUNT_ID = "crater.io/account-id";
    public static final String USER_ID = "crater.io/user-id";
    public static final String KIND = "crater.io/kind";
    public static final String DISPLAY_NAME = "crater.io/display-name";
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";

    private static final String ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";
    private static final Pattern PUBLIC_ID = Pattern.compile("^j[a-z0-9]{5,12}$");
    private static final SecureRandom RANDOM = new SecureRandom();

    private JobNames() {}

    /** A new public id: {@code j} and 7 characters without look-alikes (about 3.4 × 10^10 ids). */
    public static String newPublicId() {
        StringBuilder sb = new StringBuilder("j");
        for (int i = 0; i < 7; i++) {
            sb.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return sb.toString();
    }

    public static boolean isPublicId(String id) {
        return id != null && PUBLIC_ID.matcher(id).matches();
    }

    /** The Volcano Job's name, also the prefix of its pods, Service and Secrets. */
    public static String volcanoName(String publicId) {
        return PREFIX + publicId;
    }

    /** The Secret holding the values of the credentials the job's environment references. */
    public static String credentialsSecret(String publicId) {
        return volcanoName(publicId) + "-credentials";
    }

    /** The labels every object of a job carries, by which Crater finds them again. */
    public static Map<String, String> labels(String publicId, long accountId, long userId, String kind) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(MANAGED_BY, "crater");
        labels.put(JOB_ID, publicId);
        labels.put(ACCOUNT_ID, Long.toString(accountId));
        labels.put(USER_ID, Long.toString(userId));
        labels.put(KIND, kind);
        return labels;
    }
}
