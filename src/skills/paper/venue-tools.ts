import { Type as T } from '@sinclair/typebox';
import { defineTool } from '../../mcp/tool.ts';
import { findVenue, listVenues, SLOTS, type Venue, venueTemplate } from '../../paper/venues.ts';

const describeVenue = (v: Venue) => ({
  venue: v.id,
  name: v.name,
  page_limit: v.pageLimit,
  document_class: v.documentClass,
  bibliography_style: v.bibliographyStyle,
  debian_package: v.debianPackage,
});

export const listVenuesTool = defineTool({
  name: 'list_venues',
  description:
    'The venues a paper can be written for: neurips (9 pages), icpp (10), sc (12), isc (12), arxiv (no limit), acm (10). ' +
    'Returns {venues: [{venue, name, page_limit (pages before the references; null: none), document_class, bibliography_style, debian_package}]}.',
  params: T.Object({}, { additionalProperties: false }),
  run: () => ({ venues: listVenues().map(describeVenue) }),
});

export const getTemplate = defineTool({
  name: 'get_template',
  description:
    "A venue's LaTeX template: a whole document using the venue's real class (acmart for icpp and acm, IEEEtran for sc, llncs for isc, NeurIPS's page geometry on article), " +
    'with slots <<title>>, <<authors>>, <<abstract>>, <<body>> (the sections) and <<bibliography>> (the .bib name). Its preamble defines the claim anchor: ' +
    'write every number as \\svcclaim{<key of science_data.json values>} and svc fills in the value, printed as \\svcclaim{<key>}{<value>}. ' +
    'Returns {venue, name, page_limit, document_class, bibliography_style, debian_package, slots, template}; an unknown venue is an error listing the known ones.',
  params: T.Object({ venue: T.String({ description: 'neurips, icpp, sc, isc, arxiv or acm' }) }, { additionalProperties: false }),
  run: (args) => {
    const v = findVenue(args.venue);
    return { ...describeVenue(v), slots: [...SLOTS], template: venueTemplate(v) };
  },
});
