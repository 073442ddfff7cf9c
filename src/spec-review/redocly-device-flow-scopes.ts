/**
 * @redocly/openapi-core 2.64 (the newest published) types the scopes of OAS 3.2's device
 * authorization flow (§4.8.29.1) as `mapOf('string')`, a map of a node type named "string" that it
 * does not know: linting any 3.2 document whose device flow names a scope throws "Unknown type name
 * found: string". Redocly CLI 2.77 bundles a newer core that types them as 3.1 types every other
 * flow's scopes, an object of strings; this type extension does the same, for 3.2 documents only.
 * Every Redocly config spec review builds (lint's, bundle's) carries it: `plugins: [DEVICE_FLOW_SCOPES]`.
 */
export const DEVICE_FLOW_SCOPES = {
  id: 'flag-admin-oas3_2-device-flow-scopes',
  typeExtension: {
    oas3: (types: Record<string, { properties?: Record<string, unknown> }>, version: string) => {
      const device = types.DeviceAuthorization;
      if (version !== 'oas3_2' || !device?.properties) return types;
      return { ...types, DeviceAuthorization: { ...device, properties: { ...device.properties, scopes: { type: 'object', additionalProperties: { type: 'string' } } } } };
    },
  },
};
