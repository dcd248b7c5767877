package io.crater.identity;

import io.crater.policy.DirectoryProfile;
import io.crater.policy.DirectorySync;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/** The configured directory: its client, how its entries map to users and which groups grant which accounts. */
@ApplicationScoped
class LdapDirectory {

    private static final Logger LOG = Logger.getLogger(LdapDirectory.class);

    @Inject
    LdapConfig config;

    private volatile LdapClient client;

    /** Checks the settings at start, so a mistake stops Crater with the key's name rather than every sign-in. */
    void onStart(@Observes StartupEvent event) {
        if (!config.enabled()) {
            return;
        }
        List<String> problems = problems(config);
        if (!problems.isEmpty()) {
            throw new IllegalStateException("LDAP sign-in is misconfigured: " + String.join("; ", problems));
        }
        client();
        LOG.infof(
                "LDAP sign-in: %s (%s, %s), %d group mapping(s)",
                config.url().get(),
                config.userDnPattern().isPresent() ? "direct bind" : "bind and search",
                config.startTls() ? "StartTLS" : config.url().get().startsWith("ldaps:") ? "LDAPS" : "plain",
                config.groups().size());
    }

    /** What is wrong with the settings, key by key. */
    static List<String> problems(LdapConfig c) {
        List<String> out = new ArrayList<>();
        if (c.url().isEmpty() || !c.url().get().matches("^ldaps?://.+")) {
            out.add("crater.ldap.url must be ldap://host[:port] or ldaps://host[:port]");
        } else if (c.startTls() && c.url().get().startsWith("ldaps:")) {
            out.add("crater.ldap.start-tls applies to ldap:// URLs; ldaps:// is TLS already");
        }
        if (c.userDnPattern().isEmpty() && c.userBaseDn().isEmpty()) {
            out.add("set crater.ldap.user-base-dn (bind and search) or crater.ldap.user-dn-pattern (direct bind)");
        }
        if (c.bindDn().isPresent() && c.bindPassword().isEmpty()) {
            out.add("crater.ldap.bind-password is required with crater.ldap.bind-dn");
        }
        if (!c.name().matches("^[a-z0-9][a-z0-9-]{0,31}$")) {
            out.add("crater.ldap.name must be 1 to 32 lowercase letters, digits or '-'");
        }
        c.groups().forEach((name, g) -> {
            if (!"member".equals(g.role()) && !"admin".equals(g.role())) {
                out.add("crater.ldap.groups." + name + ".role must be member or admin");
            }
        });
        return out;
    }

    boolean enabled() {
        return config.enabled();
    }

    LdapConfig config() {
        return config;
    }

    /** The mark of this directory on links and on the memberships it grants. */
    String source() {
        return "ldap:" + config.name();
    }

    LdapClient client() {
        LdapClient c = client;
        if (c == null) {
            synchronized (this) {
                if (client == null) {
                    client = new LdapClient(config);
                }
                c = client;
            }
        }
        return c;
    }

    DirectoryProfile profile() {
        LdapConfig.Attributes a = config.attributes();
        return new DirectoryProfile(
                a.username(), a.displayName(), a.email(), a.uidNumber(), a.gidNumber(), a.idsFromSid(), a.sidOffset());
    }

    List<DirectorySync.GroupMapping> mappings() {
        List<DirectorySync.GroupMapping> out = new ArrayList<>();
        for (Map.Entry<String, LdapConfig.GroupMapping> e : config.groups().entrySet()) {
            out.add(new DirectorySync.GroupMapping(
                    e.getValue().group(), e.getValue().account(), e.getValue().role()));
        }
        return out;
    }
}
