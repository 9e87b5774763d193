// The crm context's face: customers, companies, leads and tasks.
// Other contexts, adapters and apps use these names and nothing else of this folder.
export { createCompany, deleteCompany, getCompany, listCompanies, updateCompany } from './companies.js';
export {
  CreateCustomerSchema,
  type Customer,
  CustomerSchema,
  ListCustomersQuerySchema,
  UpdateCustomerSchema,
} from './customer-schemas.js';
export {
  addCustomerNote,
  createCustomer,
  getCustomer,
  getCustomerTimeline,
  listCustomers,
  updateCustomer,
} from './customers.js';
export { convertLead, createLead, deleteLead, getLead, listLeads, updateLead } from './leads.js';
export type {
  CompanyPatch,
  CompanyStore,
  CrmStores,
  CrmTaskFilter,
  CrmTaskPatch,
  CrmTaskStore,
  CustomerDataRecords,
  CustomerNoteStore,
  CustomerPatch,
  CustomerStore,
  CustomerTimelineStore,
  ErasurePlan,
  LeadPatch,
  LeadStore,
  NewCompany,
  NewCrmTask,
  NewCustomer,
  NewLead,
  PersonalDataStore,
  TimelineRecord,
} from './ports.js';
export {
  type CustomerExport,
  CustomerExportSchema,
  type EraseCustomerInput,
  EraseCustomerSchema,
  type ErasureReport,
  ErasureReportSchema,
  type ExportedGuestEmail,
  type ExportedItinerary,
  type ExportedResellerContact,
} from './personal-data-schemas.js';
export {
  type Company,
  CompanySchema,
  ConvertLeadSchema,
  CreateCompanySchema,
  CreateCrmTaskSchema,
  CreateCustomerNoteSchema,
  CreateLeadSchema,
  type CrmTask,
  CrmTaskSchema,
  type CustomerNote,
  CustomerNoteSchema,
  type Lead,
  LeadSchema,
  ListCompaniesQuerySchema,
  ListCrmTasksQuerySchema,
  ListLeadsQuerySchema,
  TimelineEntrySchema,
  UpdateCompanySchema,
  UpdateCrmTaskSchema,
  UpdateLeadSchema,
} from './schemas.js';
export { createCrmTask, deleteCrmTask, getCrmTask, listCrmTasks, updateCrmTask } from './tasks.js';
// Last: reaches the bookings context's use cases (which reach this context again).
export { eraseCustomer, eraseCustomersPastRetention, exportCustomerData } from './personal-data.js';
