package io.crater.files;

import io.crater.platform.ApiException;
import java.io.ByteArrayInputStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * WebDAV's XML (RFC 4918): the PROPFIND and PROPPATCH request bodies read (no DTDs, no entities), and the 207
 * multistatus answers written. Pure: names and attributes in, text out.
 */
final class DavXml {

    static final String NS = "DAV:";

    /** The live properties served, in the order {@code allprop} lists them. */
    static final List<String> LIVE = List.of(
            "displayname",
            "resourcetype",
            "getcontentlength",
            "getlastmodified",
            "creationdate",
            "getetag",
            "getcontenttype");

    /** Properties given only when asked for by name (RFC 4331), never in {@code allprop}. */
    static final List<String> QUOTA = List.of("quota-used-bytes", "quota-available-bytes");

    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.ofPattern(
                    "EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
            .withZone(ZoneOffset.UTC);

    private DavXml() {}

    /** A property by its namespace and local name. */
    record Name(String ns, String local) {
        boolean dav() {
            return NS.equals(ns);
        }
    }

    /**
     * What a PROPFIND asks for.
     *
     * @param names the properties named in {@code prop}, empty for {@code allprop} and {@code propname}
     */
    record Find(boolean allprop, boolean propname, List<Name> names) {}

    /** One resource of a multistatus: its href and its properties' values (null for a property it does not have). */
    record Resource(String href, Map<Name, String> found, List<Name> missing) {}

    /** Reads a PROPFIND body; an empty body means {@code allprop}. */
    static Find find(byte[] body) {
        if (body.length == 0) {
            return new Find(true, false, List.of());
        }
        Element root = parse(body);
        if (!isDav(root, "propfind")) {
            throw bad("a PROPFIND body is a DAV:propfind element");
        }
        for (Element child : children(root)) {
            if (isDav(child, "allprop")) {
                return new Find(true, false, List.of());
            }
            if (isDav(child, "propname")) {
                return new Find(false, true, List.of());
            }
            if (isDav(child, "prop")) {
                return new Find(false, false, names(child));
            }
        }
        throw bad("a DAV:propfind holds allprop, propname or prop");
    }

    /** The properties a PROPPATCH would set or remove. */
    static List<Name> patched(byte[] body) {
        Element root = parse(body);
        if (!isDav(root, "propertyupdate")) {
            throw bad("a PROPPATCH body is a DAV:propertyupdate element");
        }
        List<Name> out = new ArrayList<>();
        for (Element change : children(root)) {
            if (isDav(change, "set") || isDav(change, "remove")) {
                for (Element prop : children(change)) {
                    if (isDav(prop, "prop")) {
                        out.addAll(names(prop));
                    }
                }
            }
        }
        return out;
    }

    /** The live properties of an entry; {@code quota} holds the space's RFC 4331 figures for a folder, else null. */
    static Map<Name, String> live(String name, BasicFileAttributes a, long[] quota) {
        Map<Name, String> p = new LinkedHashMap<>();
        p.put(new Name(NS, "displayname"), text(name));
        p.put(new Name(NS, "resourcetype"), a.isDirectory() ? "<D:collection/>" : "");
        if (!a.isDirectory()) {
            p.put(new Name(NS, "getcontentlength"), Long.toString(a.size()));
            p.put(new Name(NS, "getcontenttype"), FileReads.type(java.nio.file.Path.of(name.isEmpty() ? "x" : name)));
        }
        p.put(
                new Name(NS, "getlastmodified"),
                HTTP_DATE.format(a.lastModifiedTime().toInstant()));
        p.put(
                new Name(NS, "creationdate"),
                a.creationTime().toInstant().truncatedTo(ChronoUnit.SECONDS).toString());
        p.put(new Name(NS, "getetag"), text(etag(a)));
        if (quota != null) {
            p.put(new Name(NS, "quota-used-bytes"), Long.toString(quota[0]));
            p.put(new Name(NS, "quota-available-bytes"), Long.toString(quota[1]));
        }
        return p;
    }

    /** A strong validator from the size and the modification time. */
    static String etag(BasicFileAttributes a) {
        return "\"" + Long.toHexString(a.size()) + "-"
                + Long.toHexString(a.lastModifiedTime().to(java.util.concurrent.TimeUnit.MICROSECONDS)) + "\"";
    }

    static String httpDate(BasicFileAttributes a) {
        return HTTP_DATE.format(a.lastModifiedTime().toInstant());
    }

    /** The resource as a PROPFIND answers it: what was asked for and found, and what was asked for and is not. */
    static Resource answer(String href, Map<Name, String> live, Find find) {
        if (find.allprop()) {
            Map<Name, String> all = new LinkedHashMap<>(live);
            all.keySet().removeIf(n -> QUOTA.contains(n.local()));
            return new Resource(href, all, List.of());
        }
        if (find.propname()) {
            Map<Name, String> names = new LinkedHashMap<>();
            live.keySet().forEach(n -> names.put(n, ""));
            return new Resource(href, names, List.of());
        }
        Map<Name, String> found = new LinkedHashMap<>();
        List<Name> missing = new ArrayList<>();
        for (Name n : find.names()) {
            if (live.containsKey(n)) {
                found.put(n, live.get(n));
            } else {
                missing.add(n);
            }
        }
        return new Resource(href, found, missing);
    }

    /** A 207 body: each resource with a 200 propstat for what it has and a 404 one for what it has not. */
    static String multistatus(List<Resource> resources) {
        StringBuilder b =
                new StringBuilder("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:multistatus xmlns:D=\"DAV:\">");
        for (Resource r : resources) {
            b.append("<D:response><D:href>").append(text(r.href())).append("</D:href>");
            if (!r.found().isEmpty() || r.missing().isEmpty()) {
                b.append("<D:propstat><D:prop>");
                r.found().forEach((n, v) -> element(b, n, v));
                b.append("</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>");
            }
            status(b, r.missing(), "404 Not Found");
            b.append("</D:response>");
        }
        return b.append("</D:multistatus>\n").toString();
    }

    /** A PROPPATCH's answer: every property refused with 403, since Crater keeps no dead properties. */
    static String refused(String href, List<Name> names) {
        StringBuilder b =
                new StringBuilder("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:multistatus xmlns:D=\"DAV:\">");
        b.append("<D:response><D:href>").append(text(href)).append("</D:href>");
        status(b, names, "403 Forbidden");
        b.append("<D:responsedescription>properties are not stored here</D:responsedescription></D:response>");
        return b.append("</D:multistatus>\n").toString();
    }

    /** The body of a refusal with a precondition code (RFC 4918 16), e.g. {@code propfind-finite-depth}. */
    static String precondition(String code) {
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:error xmlns:D=\"DAV:\"><D:" + code + "/></D:error>\n";
    }

    private static void status(StringBuilder b, List<Name> names, String status) {
        if (names.isEmpty()) {
            return;
        }
        b.append("<D:propstat><D:prop>");
        names.forEach(n -> element(b, n, ""));
        b.append("</D:prop><D:status>HTTP/1.1 ").append(status).append("</D:status></D:propstat>");
    }

    private static void element(StringBuilder b, Name n, String value) {
        String tag = n.dav() ? "D:" + n.local() : "X:" + n.local();
        b.append('<').append(tag);
        if (!n.dav()) {
            b.append(" xmlns:X=\"").append(text(n.ns())).append('"');
        }
        if (value.isEmpty()) {
            b.append("/>");
        } else {
            b.append('>').append(value).append("</").append(tag).append('>');
        }
    }

    /** Text escaped for XML; characters XML 1.0 cannot hold become U+FFFD. */
    static String text(String s) {
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints().forEach(c -> {
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                default -> b.appendCodePoint(c < 0x20 && c != '\t' && c != '\n' && c != '\r' ? 0xFFFD : c);
            }
        });
        return b.toString();
    }

    private static List<Name> names(Element prop) {
        return children(prop).stream()
                .map(e -> new Name(e.getNamespaceURI() == null ? "" : e.getNamespaceURI(), e.getLocalName()))
                .toList();
    }

    private static boolean isDav(Element e, String local) {
        return NS.equals(e.getNamespaceURI()) && local.equals(e.getLocalName());
    }

    private static List<Element> children(Element e) {
        List<Element> out = new ArrayList<>();
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element child) {
                out.add(child);
            }
        }
        return out;
    }

    private static Element parse(byte[] body) {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            DocumentBuilder builder = f.newDocumentBuilder();
            builder.setErrorHandler(new org.xml.sax.helpers.DefaultHandler());
            Document doc = builder.parse(new ByteArrayInputStream(body));
            return doc.getDocumentElement();
        } catch (Exception e) {
            throw bad("the body is not well-formed XML (DTDs are not accepted)");
        }
    }

    private static ApiException bad(String detail) {
        return ApiException.badRequest("InvalidXml", detail, null);
    }
}
