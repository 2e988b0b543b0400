// The introspection XML, generated from the same `Interface` values the dispatcher routes by.

extension InterfaceName {
    static let introspectable: InterfaceName = "org.freedesktop.DBus.Introspectable"
    static let properties: InterfaceName = "org.freedesktop.DBus.Properties"
    static let peer: InterfaceName = "org.freedesktop.DBus.Peer"
}

private let doctype = """
    <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

    """

/// The standard interfaces every exported object has, declared for introspection.
let standardInterfaceXML = """
      <interface name="org.freedesktop.DBus.Peer">
        <method name="Ping"/>
        <method name="GetMachineId">
          <arg type="s" name="machine_uuid" direction="out"/>
        </method>
      </interface>
      <interface name="org.freedesktop.DBus.Introspectable">
        <method name="Introspect">
          <arg type="s" name="xml_data" direction="out"/>
        </method>
      </interface>
      <interface name="org.freedesktop.DBus.Properties">
        <method name="Get">
          <arg type="s" name="interface_name" direction="in"/>
          <arg type="s" name="property_name" direction="in"/>
          <arg type="v" name="value" direction="out"/>
        </method>
        <method name="GetAll">
          <arg type="s" name="interface_name" direction="in"/>
          <arg type="a{sv}" name="properties" direction="out"/>
        </method>
        <method name="Set">
          <arg type="s" name="interface_name" direction="in"/>
          <arg type="s" name="property_name" direction="in"/>
          <arg type="v" name="value" direction="in"/>
        </method>
        <signal name="PropertiesChanged">
          <arg type="s" name="interface_name"/>
          <arg type="a{sv}" name="changed_properties"/>
          <arg type="as" name="invalidated_properties"/>
        </signal>
      </interface>

    """

/// The XML of one interface, indented for a `<node>`.
public func introspectionXML(of interface: Interface) -> String {
    var xml = "  <interface name=\"\(interface.name)\">\n"
    for method in interface.methods {
        let arguments =
            method.inputs.map { argumentXML($0, direction: "in") } + method.outputs.map { argumentXML($0, direction: "out") }
        xml += element("method", name: method.name.rawValue, children: arguments + method.annotations.map(annotationXML))
    }
    for signal in interface.signals {
        xml += element("signal", name: signal.name.rawValue, children: signal.arguments.map { argumentXML($0, direction: nil) })
    }
    for property in interface.properties {
        let annotations =
            property.emitsChanged == .true
            ? [] : [annotationXML(Annotation("org.freedesktop.DBus.Property.EmitsChangedSignal", property.emitsChanged.rawValue))]
        xml += element(
            "property", name: property.name.rawValue, extra: " type=\"\(property.signature)\" access=\"\(property.access.rawValue)\"",
            children: annotations)
    }
    return xml + "  </interface>\n"
}

/// The XML of a whole node: its interfaces (with the standard ones) and its direct children.
func introspectionXML(interfaces: [Interface], children: [String]) -> String {
    var xml = doctype + "<node>\n"
    if !interfaces.isEmpty {
        xml += standardInterfaceXML
        for interface in interfaces { xml += introspectionXML(of: interface) }
    }
    for child in children { xml += "  <node name=\"\(child)\"/>\n" }
    return xml + "</node>\n"
}

private func argumentXML(_ argument: Argument, direction: String?) -> String {
    let directionAttribute = direction.map { " direction=\"\($0)\"" } ?? ""
    return "<arg type=\"\(argument.signature.rawValue.xmlEscaped)\" name=\"\(argument.name)\"\(directionAttribute)/>"
}

private func annotationXML(_ annotation: Annotation) -> String {
    "<annotation name=\"\(annotation.name)\" value=\"\(annotation.value.xmlEscaped)\"/>"
}

private func element(_ tag: String, name: String, extra: String = "", children: [String]) -> String {
    guard !children.isEmpty else { return "    <\(tag) name=\"\(name)\"\(extra)/>\n" }
    return "    <\(tag) name=\"\(name)\"\(extra)>\n" + children.map { "      \($0)\n" }.joined() + "    </\(tag)>\n"
}

extension String {
    var xmlEscaped: String {
        var out = ""
        for character in self {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
