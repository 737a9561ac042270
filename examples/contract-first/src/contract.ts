// Written by `fastify-soap types` from checkVatService.wsdl: the checkVatService service,
// binding {urn:ec.europa.eu:taxud:vies:services:checkVat}checkVatBinding (SOAP 1.1). Written again when the contract changes; not edited.
import type { ContractOperations, Infer } from 'fastify-soap'

/** The schemas each operation is read and written by. */
export const schemas = {
  "checkVat": {
    "input": {
      "type": "object",
      "properties": {
        "countryCode": {
          "type": "string",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "vatNumber": {
          "type": "string",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        }
      },
      "additionalProperties": false,
      "required": [
        "countryCode",
        "vatNumber"
      ],
      "xml": {
        "name": "checkVat",
        "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
      }
    },
    "output": {
      "type": "object",
      "properties": {
        "countryCode": {
          "type": "string",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "vatNumber": {
          "type": "string",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "requestDate": {
          "type": "string",
          "pattern": "^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}(Z|[+-][0-9]{2}:[0-9]{2})?$",
          "xml": {
            "whiteSpace": "collapse",
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "valid": {
          "type": "boolean",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "name": {
          "type": "string",
          "nullable": true,
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "address": {
          "type": "string",
          "nullable": true,
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        }
      },
      "additionalProperties": false,
      "required": [
        "countryCode",
        "vatNumber",
        "requestDate",
        "valid"
      ],
      "xml": {
        "name": "checkVatResponse",
        "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
      }
    }
  },
  "checkVatApprox": {
    "input": {
      "type": "object",
      "properties": {
        "countryCode": {
          "type": "string",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "vatNumber": {
          "type": "string",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "traderName": {
          "type": "string",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "traderCompanyType": {
          "type": "string",
          "pattern": "^(?:(?:[A-Z]{2}-[1-9][0-9]?))$",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "traderStreet": {
          "type": "string",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "traderPostcode": {
          "type": "string",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "traderCity": {
          "type": "string",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "requesterCountryCode": {
          "type": "string",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "requesterVatNumber": {
          "type": "string",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        }
      },
      "additionalProperties": false,
      "required": [
        "countryCode",
        "vatNumber"
      ],
      "xml": {
        "name": "checkVatApprox",
        "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
      }
    },
    "output": {
      "type": "object",
      "properties": {
        "countryCode": {
          "type": "string",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "vatNumber": {
          "type": "string",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "requestDate": {
          "type": "string",
          "pattern": "^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}(Z|[+-][0-9]{2}:[0-9]{2})?$",
          "xml": {
            "whiteSpace": "collapse",
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "valid": {
          "type": "boolean",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "traderName": {
          "type": "string",
          "nullable": true,
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "traderCompanyType": {
          "type": "string",
          "pattern": "^(?:(?:[A-Z]{2}-[1-9][0-9]?))$",
          "nullable": true,
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "traderAddress": {
          "type": "string",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "traderStreet": {
          "type": "string",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "traderPostcode": {
          "type": "string",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "traderCity": {
          "type": "string",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "traderNameMatch": {
          "type": "string",
          "enum": [
            "1",
            "2",
            "3"
          ],
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "traderCompanyTypeMatch": {
          "type": "string",
          "enum": [
            "1",
            "2",
            "3"
          ],
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "traderStreetMatch": {
          "type": "string",
          "enum": [
            "1",
            "2",
            "3"
          ],
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "traderPostcodeMatch": {
          "type": "string",
          "enum": [
            "1",
            "2",
            "3"
          ],
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "traderCityMatch": {
          "type": "string",
          "enum": [
            "1",
            "2",
            "3"
          ],
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        },
        "requestIdentifier": {
          "type": "string",
          "xml": {
            "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
          }
        }
      },
      "additionalProperties": false,
      "required": [
        "countryCode",
        "vatNumber",
        "requestDate",
        "valid",
        "requestIdentifier"
      ],
      "xml": {
        "name": "checkVatApproxResponse",
        "namespace": "urn:ec.europa.eu:taxud:vies:services:checkVat:types"
      }
    }
  }
} as const

/** The handlers of `app.soap.contract<Operations>({ operations })`. */
export type Operations = ContractOperations<typeof schemas>

export type CheckVatInput = Infer<typeof schemas["checkVat"]['input']>
export type CheckVatOutput = Infer<typeof schemas["checkVat"]['output']>
export type CheckVatApproxInput = Infer<typeof schemas["checkVatApprox"]['input']>
export type CheckVatApproxOutput = Infer<typeof schemas["checkVatApprox"]['output']>
