import { describe, expect, it } from 'vitest';
import { upgradeOpenApi30 } from './upgrade-openapi-30.ts';

describe('upgradeOpenApi30', () => {
  it('rewrites nullable and boolean exclusive bounds into their 2020-12 form, keeping the keys they are reported at', () => {
    const document = { components: { schemas: { A: { type: 'string', nullable: true }, B: { type: 'integer', minimum: 1, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false }, C: { nullable: true, enum: ['x'] } } } };
    upgradeOpenApi30(document);
    expect(document.components.schemas).toEqual({ A: { type: ['string', 'null'] }, B: { type: 'integer', exclusiveMinimum: 1, maximum: 9 }, C: { enum: ['x'] } });
  });

  it('leaves data alone (examples, defaults, extensions) but reads a property named like a data keyword as a schema', () => {
    const document = { paths: { '/a': { get: { responses: { '200': { content: { 'application/json': { example: { nullable: true }, schema: { properties: { example: { type: 'string', nullable: true }, default: { type: 'number', nullable: true } }, default: { nullable: true }, 'x-raw': { nullable: true } } } } } } } } } };
    upgradeOpenApi30(document);
    const media = document.paths['/a'].get.responses['200'].content['application/json'];
    expect(media.example).toEqual({ nullable: true });
    expect(media.schema).toEqual({ properties: { example: { type: ['string', 'null'] }, default: { type: ['number', 'null'] } }, default: { nullable: true }, 'x-raw': { nullable: true } });
  });

  it('upgrades a shared, recursive dereferenced schema once', () => {
    const node: Record<string, unknown> = { type: 'object', nullable: true };
    node.properties = { parent: node };
    const document = { paths: { '/a': { get: { responses: { '200': { content: { 'application/json': { schema: node } } } } } } }, components: { schemas: { Node: node } } };
    upgradeOpenApi30(document);
    expect(node.type).toEqual(['object', 'null']);
  });
});
