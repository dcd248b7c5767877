package io.crater.identity;

import io.crater.policy.DirectoryProfile;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.naming.AuthenticationException;
import javax.naming.Context;
import javax.naming.NameNotFoundException;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.directory.Attribute;
import javax.naming.directory.Attributes;
import javax.naming.directory.DirContext;
import javax.naming.directory.SearchControls;
import javax.naming.directory.SearchResult;
import javax.naming.ldap.InitialLdapContext;
import javax.naming.ldap.LdapContext;
import javax.naming.ldap.Rdn;
import javax.naming.ldap.StartTlsRequest;
import javax.naming.ldap.StartTlsResponse;
import javax.net.ssl.SSLSocketFactory;

/**
 * Blocking LDAP calls through the JDK's JNDI provider: a user's bind (after a search as the service account, or
 * directly on a DN pattern), reading an entry and its groups. Call it on a worker thread, never inside a database
 * transaction. Passwords are handed to the directory and kept nowhere.
 */
final class LdapClient {

    /** The directory could not be reached or answered with an error other than wrong credentials. */
    static final class Unavailable extends RuntimeException {
        Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** An entry and the DNs of its groups. */
    record Found(DirectoryProfile.Entry entry, List<String> groups) {}

    private final LdapConfig config;
    private final SSLSocketFactory tls;

    LdapClient(LdapConfig config) {
        this.config = config;
        try {
            this.tls = config.caFile().isPresent()
                    ? LdapSockets.trusting(Path.of(config.caFile().get()))
                    : (SSLSocketFactory) SSLSocketFactory.getDefault();
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("crater.ldap.ca-file cannot be read: " + e.getMessage(), e);
        }
        LdapSockets.use(tls);
    }

    /** The user's entry and groups when the password is right; empty when the username or password is wrong. */
    Optional<Found> authenticate(String username, String password) {
        if (password == null || password.isEmpty()) {
            return Optional.empty(); // an empty password would be an anonymous bind, which LDAP accepts
        }
        String dn;
        if (config.userDnPattern().isPresent()) {
            dn = config.userDnPattern().get().replace("{0}", Rdn.escapeValue(username));
        } else {
            Optional<DirectoryProfile.Entry> entry = search(username);
            if (entry.isEmpty()) {
                return Optional.empty();
            }
            dn = entry.get().dn();
        }
        LdapContext ctx;
        try {
            ctx = open(dn, password);
        } catch (AuthenticationException e) {
            return Optional.empty();
        } catch (NamingException e) {
            throw unavailable(e);
        }
        try {
            DirectoryProfile.Entry entry = entry(ctx, dn);
            return Optional.of(new Found(entry, groups(ctx, entry, username)));
        } catch (NameNotFoundException e) {
            return Optional.empty();
        } catch (NamingException e) {
            throw unavailable(e);
        } finally {
            close(ctx);
        }
    }

    /** The entry at {@code dn} with its groups, read as the service account; empty when it is gone. */
    Optional<Found> lookup(String dn, String username) {
        LdapContext ctx = service();
        try {
            DirectoryProfile.Entry entry = entry(ctx, dn);
            return Optional.of(new Found(entry, groups(ctx, entry, username)));
        } catch (NameNotFoundException e) {
            return Optional.empty();
        } catch (NamingException e) {
            throw unavailable(e);
        } finally {
            close(ctx);
        }
    }

    private Optional<DirectoryProfile.Entry> search(String username) {
        LdapContext ctx = service();
        try {
            SearchControls controls = controls(SearchControls.SUBTREE_SCOPE);
            controls.setCountLimit(2);
            List<DirectoryProfile.Entry> found = new ArrayList<>();
            NamingEnumeration<SearchResult> results =
                    ctx.search(config.userBaseDn().orElse(""), config.userFilter(), new Object[] {username}, controls);
            try {
                while (results.hasMore()) {
                    SearchResult r = results.next();
                    found.add(entry(r.getNameInNamespace(), r.getAttributes()));
                }
            } catch (javax.naming.SizeLimitExceededException e) {
                return Optional.empty(); // two entries for one name: sign in as neither
            }
            return found.size() == 1 ? Optional.of(found.get(0)) : Optional.empty();
        } catch (NamingException e) {
            throw unavailable(e);
        } finally {
            close(ctx);
        }
    }

    private List<String> groups(DirContext ctx, DirectoryProfile.Entry entry, String username) throws NamingException {
        if (config.groupBaseDn().isEmpty()) {
            return List.of();
        }
        String name = entry.attributes().entrySet().stream()
                .filter(e -> e.getKey().equalsIgnoreCase(config.attributes().username())
                        && !e.getValue().isEmpty())
                .map(e -> e.getValue().get(0))
                .findFirst()
                .orElse(username);
        SearchControls controls = controls(SearchControls.SUBTREE_SCOPE);
        controls.setReturningAttributes(new String[] {"1.1"});
        List<String> out = new ArrayList<>();
        NamingEnumeration<SearchResult> results =
                ctx.search(config.groupBaseDn().get(), config.groupFilter(), new Object[] {entry.dn(), name}, controls);
        while (results.hasMore()) {
            out.add(results.next().getNameInNamespace());
        }
        return out;
    }

    private DirectoryProfile.Entry entry(DirContext ctx, String dn) throws NamingException {
        return entry(dn, ctx.getAttributes(dn, attributeNames()));
    }

    private DirectoryProfile.Entry entry(String dn, Attributes attributes) throws NamingException {
        Map<String, List<String>> values = new LinkedHashMap<>();
        byte[] sid = null;
        NamingEnumeration<? extends Attribute> all = attributes.getAll();
        while (all.hasMore()) {
            Attribute a = all.next();
            if (a.getID().equalsIgnoreCase(DirectoryProfile.OBJECT_SID)) {
                sid = a.get() instanceof byte[] b ? b : null;
                continue;
            }
            List<String> list = new ArrayList<>();
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i) instanceof String s) {
                    list.add(s);
                }
            }
            values.put(a.getID(), list);
        }
        return new DirectoryProfile.Entry(dn, values, sid);
    }

    private String[] attributeNames() {
        LdapConfig.Attributes a = config.attributes();
        return new String[] {
            a.username(),
            a.displayName(),
            a.email(),
            a.uidNumber(),
            a.gidNumber(),
            DirectoryProfile.OBJECT_SID,
            DirectoryProfile.PRIMARY_GROUP_ID
        };
    }

    private SearchControls controls(int scope) {
        SearchControls c = new SearchControls();
        c.setSearchScope(scope);
        c.setReturningAttributes(attributeNames());
        c.setTimeLimit((int) config.readTimeout().toMillis());
        return c;
    }

    private LdapContext service() {
        try {
            return open(config.bindDn().orElse(null), config.bindPassword().orElse(null));
        } catch (AuthenticationException e) {
            throw new Unavailable("the directory refused Crater's service account (crater.ldap.bind-dn)", e);
        } catch (NamingException e) {
            throw unavailable(e);
        }
    }

    /** A connection bound as {@code dn} (anonymous when null), over StartTLS when configured. */
    private LdapContext open(String dn, String password) throws NamingException {
        Hashtable<String, Object> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "com.sun.jndi.ldap.LdapCtxFactory");
        env.put(
                Context.PROVIDER_URL,
                config.url().orElseThrow(() -> new Unavailable("crater.ldap.url is not set", null)));
        env.put(Context.REFERRAL, "ignore");
        env.put(
                "com.sun.jndi.ldap.connect.timeout",
                String.valueOf(config.connectTimeout().toMillis()));
        env.put(
                "com.sun.jndi.ldap.read.timeout",
                String.valueOf(config.readTimeout().toMillis()));
        env.put("java.naming.ldap.attributes.binary", DirectoryProfile.OBJECT_SID);
        if (config.url().get().startsWith("ldaps:") && config.caFile().isPresent()) {
            env.put("java.naming.ldap.factory.socket", LdapSockets.class.getName());
        }
        if (!config.startTls()) {
            bindEnv(env, dn, password);
            return new InitialLdapContext(env, null);
        }
        env.put(Context.SECURITY_AUTHENTICATION, "none");
        LdapContext ctx = new InitialLdapContext(env, null);
        try {
            StartTlsResponse tls = (StartTlsResponse) ctx.extendedOperation(new StartTlsRequest());
            tls.negotiate(this.tls);
            if (dn != null) {
                ctx.addToEnvironment(Context.SECURITY_AUTHENTICATION, "simple");
                ctx.addToEnvironment(Context.SECURITY_PRINCIPAL, dn);
                ctx.addToEnvironment(Context.SECURITY_CREDENTIALS, password == null ? "" : password);
                ctx.getAttributes("", new String[] {"1.1"}); // binds now, over TLS, so a wrong password shows here
            }
            return ctx;
        } catch (IOException e) {
            close(ctx);
            throw new Unavailable("StartTLS with the directory failed: " + e.getMessage(), e);
        } catch (NamingException e) {
            close(ctx);
            throw e;
        }
    }

    private static void bindEnv(Hashtable<String, Object> env, String dn, String password) {
        if (dn == null) {
            env.put(Context.SECURITY_AUTHENTICATION, "none");
        } else {
            env.put(Context.SECURITY_AUTHENTICATION, "simple");
            env.put(Context.SECURITY_PRINCIPAL, dn);
            env.put(Context.SECURITY_CREDENTIALS, password == null ? "" : password);
        }
    }

    private static Unavailable unavailable(NamingException e) {
        String why = e.getRootCause() != null
                ? e.getRootCause().toString()
                : e.getClass().getSimpleName();
        return new Unavailable("the directory cannot be reached or refused the request (" + why + ")", e);
    }

    private static void close(Context ctx) {
        try {
            ctx.close();
        } catch (NamingException | RuntimeException e) {
            // nothing to do: the connection is gone either way
        }
    }
}
